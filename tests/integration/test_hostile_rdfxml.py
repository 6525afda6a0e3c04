"""RDF/XML entity declarations: plain ones (OWL files name their namespaces so) load; nested,
parameter and external ones, and references that would expand past the cap, are refused with
one line before the parser sees the file."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgstore import KGStore
from kgstore.errors import LoadError
from kgstore.loaders import rdf

RDF = '''<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
<rdf:Description rdf:about="&ex;a"><ex:p>{body}</ex:p></rdf:Description>
</rdf:RDF>
'''


def _file(tmp_path, entities: list[str], body: str = "x"):
    path = tmp_path / "kg.rdf"
    doctype = "<!DOCTYPE rdf:RDF [\n" + "\n".join(entities) + "\n]>\n"
    path.write_text('<?xml version="1.0"?>\n' + doctype + RDF.format(body=body), encoding="utf-8")
    return path


def test_plain_entities_still_load(tmp_path):
    path = _file(tmp_path, ['<!ENTITY ex "http://example.org/">', '<!ENTITY v "value">'], "&v;&v;")
    s = KGStore()
    assert s.load(path).added == 1
    assert s.query("SELECT ?o WHERE { <http://example.org/a> ?p ?o }") == [{"o": "valuevalue"}]


def test_nested_entities_are_refused_before_parsing(tmp_path):
    lol = ['<!ENTITY ex "http://example.org/">', '<!ENTITY a0 "ha">']
    lol += [f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 9)]
    path = _file(tmp_path, lol, "&a8;")
    with pytest.raises(LoadError, match=r"kg\.rdf: line 5: entity 'a1' refers to another entity: refused"):
        KGStore().load(path)


@pytest.mark.parametrize("decl,kind", [('<!ENTITY % p "x">', "parameter"),
                                       ('<!ENTITY f SYSTEM "file:///etc/passwd">', "external")])
def test_parameter_and_external_entities_are_refused(tmp_path, decl, kind):
    path = _file(tmp_path, ['<!ENTITY ex "http://example.org/">', decl])
    with pytest.raises(LoadError, match=f"{kind} entity"):
        KGStore().load(path)


def test_references_past_the_cap_are_refused(tmp_path):
    path = _file(tmp_path, ['<!ENTITY ex "http://example.org/">', f'<!ENTITY big "{"y" * 100}">'], "&big;" * 20)
    s = KGStore()
    s.entity_cap = 1000
    with pytest.raises(LoadError, match="expand to over"):
        s.load(path)
    s.entity_cap = 4000
    assert s.load(path).added == 1


def test_a_reference_split_across_reads_is_counted(tmp_path):
    filler = "z" * (2**20 - 300)
    path = _file(tmp_path, ['<!ENTITY ex "http://example.org/">', f'<!ENTITY big "{"y" * 100}">'],
                 filler + "&big;" * 20)
    assert rdf.check_entities(str(path), 2100) is None
    with pytest.raises(LoadError, match="expand to over"):
        rdf.check_entities(str(path), 1999)


HEAD = ('<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
        'xmlns:ex="http://example.org/">\n')
LEVEL = '<rdf:Description rdf:about="http://example.org/n{i}" ex:note="a &gt; b"><ex:p>\n'


def _nested(tmp_path, levels: int, before: str = "", name: str = "deep.rdf"):
    """Description and property elements nested to `levels` + 1 (rdf:RDF), one level a line."""
    opened = "".join(LEVEL.format(i=i) for i in range(levels // 2))
    path = tmp_path / name
    path.write_text(HEAD + before + opened + "x" + "</ex:p></rdf:Description>" * (levels // 2) + "\n</rdf:RDF>\n")
    return path


def test_elements_nested_past_the_cap_are_refused_with_their_line(tmp_path):
    s = KGStore()
    s.xml_depth_cap = 9
    assert s.load(_nested(tmp_path, 8)).added == 8  # rdf:RDF and 8 levels
    with pytest.raises(LoadError, match=r"deep\.rdf: line 7: elements nested more than 9 deep: refused"):
        s.load(_nested(tmp_path, 10))
    assert s.count() == 8  # nothing of the refused file


def test_comments_cdata_and_empty_elements_do_not_count_as_nesting(tmp_path):
    noise = ("<!-- <a><b><c><d> -->\n<!--\n<x>\n-->\n<?pi <e><f>?>\n"
             '<rdf:Description rdf:about="http://example.org/e"><ex:q rdf:parseType="Literal">'
             "<![CDATA[<g><h><i>]]></ex:q><ex:r rdf:resource=\"http://example.org/r\"/>"
             '<ex:s><rdf:Description ex:v="/>"><ex:t>y</ex:t></rdf:Description></ex:s></rdf:Description>\n')
    s = KGStore()
    s.xml_depth_cap = 9
    assert s.load(_nested(tmp_path, 8, noise)).added > 8
    with pytest.raises(LoadError, match=r"line 13: elements nested more than 9 deep"):
        s.load(_nested(tmp_path, 10, noise, "deeper.rdf"))


def test_tags_and_comments_split_across_reads_are_counted(tmp_path):
    # a comment that ends after the first MB read, then tags that straddle later reads
    comment = "<!-- " + "<y>" * 400_000 + " -->\n"
    path = _nested(tmp_path, 10, comment + "<!-- " + "z" * (2**20 - 7) + " -->\n")
    with pytest.raises(LoadError, match=r"line 9: elements nested more than 9 deep"):
        rdf.check_nesting(str(path), 9)
    assert rdf.check_nesting(str(path), 11) is None


def test_the_cli_refuses_a_deep_file_in_one_line(tmp_path, capsys, monkeypatch):
    from cli import main

    monkeypatch.setattr(KGStore, "xml_depth_cap", 9)
    path = _nested(tmp_path, 40)
    assert main(["load", str(path), "--store", str(tmp_path / "db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deep.rdf: line 7: elements nested more than 9 deep: refused" in err


_NOISE = st.sampled_from(["", "text > more", " it's \"quoted\" ", "<!-- <a><b> -->", "<?pi <c>?>",
                          "<![CDATA[<d><e>]]>", "\n", "a/>b"])
_ATTRS = st.sampled_from(["", ' a="1"', " a='x>y'", ' a="/>"', " a='\"' b=\"/>\"", ' a="it\'s"'])


def _tree(children):
    """(xml, depth) of an element holding `children`, or of an empty element."""
    return st.tuples(_ATTRS, st.lists(st.tuples(_NOISE, children), max_size=4), _NOISE).map(
        lambda t: (f"<e{t[0]}>" + "".join(n + x for n, (x, _) in t[1]) + f"{t[2]}</e>",
                   1 + max((d for _, (_, d) in t[1]), default=0)))


_XML = st.recursive(_ATTRS.map(lambda a: (f"<e{a}/>", 1)), _tree, max_leaves=30)


@settings(max_examples=150, deadline=None, database=None)
@given(tree=_XML)
def test_the_depth_counted_is_the_depth_of_the_elements(tmp_path_factory, tree):
    xml, depth = tree
    path = tmp_path_factory.mktemp("x") / "t.rdf"
    path.write_text('<?xml version="1.0"?>\n' + xml)
    rdf.check_nesting(str(path), depth)
    with pytest.raises(LoadError, match=f"nested more than {depth - 1} deep"):
        rdf.check_nesting(str(path), depth - 1)


@settings(max_examples=150, deadline=None, database=None)
@given(tree=_XML, start=st.integers(0, 3))
def test_the_counts_in_numpy_and_tag_by_tag_agree(tree, start):
    xml, depth = tree
    buf = rdf._NOT_MARKUP.sub(b"", xml.encode())
    counted = rdf._plain_depth(buf, start, depth + start + 1)
    if counted is not None:
        assert counted == rdf._tag_depth(buf, start, depth + start + 1, "t.rdf", 0) == start


def test_a_file_of_plain_tags_is_counted_without_the_tag_by_tag_loop(tmp_path, monkeypatch):
    def tag_by_tag(*args):
        raise AssertionError("counted tag by tag")

    path = _nested(tmp_path, 8, '<rdf:Description rdf:about="http://example.org/b"><ex:p>x</ex:p></rdf:Description>\n' * 50_000)
    monkeypatch.setattr(rdf, "_tag_depth", tag_by_tag)
    assert rdf.check_nesting(str(path), 9) is None
    with pytest.raises(AssertionError, match="tag by tag"):  # the read that goes too deep names its line
        rdf.check_nesting(str(path), 7)
