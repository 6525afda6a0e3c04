"""RDF/XML entity declarations: plain ones (OWL files name their namespaces so) load; nested,
parameter and external ones, and references that would expand past the cap, are refused with
one line before the parser sees the file."""

from __future__ import annotations

import pytest

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
