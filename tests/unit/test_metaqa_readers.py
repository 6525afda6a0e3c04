import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.eval.metaqa import judge, plain, read_dict, read_id_triples, read_kb_lines, read_questions

name = st.text(alphabet=st.characters(blacklist_characters="|\t\n\r[]", blacklist_categories=("Cs", "Zs", "Cc")), min_size=1, max_size=12)


def test_kb_and_questions():
    kb = read_kb_lines(["Kismet|directed_by|William Dieterle\n", "\n", "Kismet|has_tags|marlene dietrich\n"])
    assert kb[1] == ("Kismet", "has_tags", "marlene dietrich")
    qs = read_questions(["who directed [Kismet]\tWilliam Dieterle\n", "what films did [William Dieterle] direct\tKismet|Juarez\n"])
    assert qs[0].text == "who directed Kismet" and qs[0].topic == "Kismet"
    assert qs[1].answers == ("Kismet", "Juarez")
    with pytest.raises(ValueError):
        read_kb_lines(["a|b\n"])
    with pytest.raises(ValueError):
        read_questions(["no topic here\tx\n"])


def test_id_triples():
    ents = read_dict(["0\tKismet\n", "1\tWilliam Dieterle\n"])
    rels = read_dict(["0\tdirected_by\n"])
    assert read_id_triples(["0\t0\t1\n"], ents, rels) == [("Kismet", "directed_by", "William Dieterle")]
    with pytest.raises(ValueError):
        read_id_triples(["0\t0\t9\n"], ents, rels)


def test_judge():
    assert judge(["juarez", "Kismet"], ("Kismet", "Juarez")) == {"hits1": True, "any": True, "all": True}
    assert judge(["Other", "Kismet"], ("Kismet",)) == {"hits1": False, "any": True, "all": True}
    assert judge([], ("Kismet",)) == {"hits1": False, "any": False, "all": False}


@given(st.lists(st.tuples(name, name, name), min_size=1, max_size=5))
def test_kb_roundtrip(triples):
    assert read_kb_lines([f"{s}|{r}|{o}\n" for s, r, o in triples]) == triples


@given(name, name, st.lists(name, min_size=1, max_size=4))
def test_question_roundtrip(before, topic, answers):
    (q,) = read_questions([f"{before} [{topic}] x\t{'|'.join(answers)}\n"])
    assert q.topic == topic and q.answers == tuple(answers) and q.text == plain(f"{before} [{topic}] x")
    assert "[" not in q.text
