import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.eval.metaqa import (
    Question,
    judge,
    named_in,
    plain,
    read_dict,
    read_id_triples,
    read_kb,
    read_kb_lines,
    read_questions,
    read_questions_of,
    sample,
)
from kgstore.errors import BadInput

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


def test_third_column_is_the_kind():
    (q,) = read_questions(["who wrote [Kismet]\tEdward Knoblock\twritten_by\n"])
    assert q.answers == ("Edward Knoblock",) and q.kind == "written_by"


def test_named_in_order_without_the_topic():
    reply = "Kismet (film) is directed by William Dieterle; The Tracker and Tracker star Kismet's cast."
    assert named_in(reply, ["Tracker", "The Tracker", "William Dieterle"], "Kismet") == \
        ["William Dieterle", "The Tracker", "Tracker"]
    assert named_in("Rating: good (good).", ["good (good)"], "Matinee") == ["good"]
    # a name inside the topic's is no answer
    assert named_in("Black Snake Moan is a drama.", ["Moan", "drama"], "Black Snake Moan") == ["drama"]


def test_question_files_both_layouts(tmp_path):
    (tmp_path / "valid_2hop.txt").write_text("who directed the films of [A]\tB\ta|b\n")
    nested = tmp_path / "1-hop" / "vanilla"
    nested.mkdir(parents=True)
    (nested / "qa_dev.txt").write_text("who directed [A]\tB\n\nwho wrote [A]\tC\n")
    (tmp_path / "1-hop" / "qa_dev_qtype.txt").write_text("movie_to_director\nmovie_to_writer\n")
    assert [q.kind for q in read_questions_of(tmp_path, 1, "dev")] == ["movie_to_director", "movie_to_writer"]
    assert read_questions_of(tmp_path, 2, "dev")[0].kind == "a|b"
    with pytest.raises(BadInput):
        read_questions_of(tmp_path, 3, "dev")


def test_kb_from_id_triples_beside_their_dictionaries(tmp_path):
    (tmp_path / "entities.dict").write_text("0\tKismet\n1\tWilliam Dieterle\n")
    (tmp_path / "relations.dict").write_text("0\tdirected_by\n1\tdirected_by_reverse\n")
    (tmp_path / "train.txt").write_text("0\t0\t1\n")
    assert read_kb(tmp_path / "train.txt") == [("Kismet", "directed_by", "William Dieterle")]
    (tmp_path / "kb.txt").write_text("Kismet|written_by|Edward Knoblock\n")
    assert read_kb(tmp_path / "kb.txt") == [("Kismet", "written_by", "Edward Knoblock")]


def test_sample_spreads_over_the_file():
    qs = [Question(f"q{i}", "t", ("a",)) for i in range(10)]
    assert [q.text for q in sample(qs, 3)] == ["q0", "q3", "q6"]
    assert sample(qs, None) == qs and sample(qs, 20) == qs


def test_eval_command_on_a_tiny_kb(tmp_path, capsys):
    import json

    from harness.eval.metaqa import main

    (tmp_path / "kb.txt").write_text(
        "Harbour Lights|directed_by|Mira Okafor\nHarbour Lights|release_year|1994\n"
        "Salt Roads|directed_by|Mira Okafor\nSalt Roads|written_by|Tomas Brandt\n")
    (tmp_path / "valid_1hop.txt").write_text("who directed [Harbour Lights]\tMira Okafor\tdirected_by\n")
    (tmp_path / "valid_2hop.txt").write_text("who directed the films written by [Tomas Brandt]\tMira Okafor\tw|d\n")
    assert main(["--kb", str(tmp_path / "kb.txt"), "--questions-dir", str(tmp_path), "--hops", "1", "2",
                 "--answer", "facts", "--json", "--rows"]) == 0
    out = json.loads(capsys.readouterr().out)
    one, two = out["rows"]
    assert one["hops"] == "1-hop" and one["n"] == 1 and one["hits1"]["hits"] == 1
    assert one["by_kind"]["directed_by"]["hits1"]["value"] == 1.0
    assert out["settings"]["triples"] == 4 and out["questions"][0]["named"][0] == "Mira Okafor"
    # the film on the way to the director is named in the reply, and is no answer
    assert two["hits1"]["hits"] == 1 and out["questions"][1]["paths"][0]["steps"] == ["written by (of)", "directed by"]
    from harness.bench.metaqa import main as bench

    assert bench(["--kb", str(tmp_path / "kb.txt"), "--questions-dir", str(tmp_path), "--hops", "1",
                  "--questions", "1", "--json"]) == 0
    timed = json.loads(capsys.readouterr().out)
    assert timed["questions"] == 1
    assert set(timed["seconds"]) == set(timed["cpu_seconds"]) == {"load", "prepare", "first_answer", "turn_p50"}
    with pytest.raises(BadInput):
        main(["--kb", str(tmp_path / "none.txt"), "--questions-dir", str(tmp_path)])
