"""Tables with a header row (CSV, TSV, .xlsx): one entity per row, a relation per column."""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main as kgchat
from kgstore import KGStore
from kgstore.errors import LoadError
from kgstore.loaders.tables import is_table, relation_label, row_class
from kgstore.vocab import RDF_TYPE, XSD, bg_graph, kg_iri

PLAYERS = """name,team,position,born,birthplace,height_cm,retired
Lena Vogt,Harbor Owls,goalkeeper,1996-03-14,Kiel,181,no
Tove Randers,Harbor Owls,striker;winger,1998-07-02,Bergen,170,no
Mara Lind,Fjord Foxes,goalkeeper,1995-11-30,Bergen,,yes
Ida Holm,Fjord Foxes,defender,1999-01-09,Aarhus,176,no
"""


def _load(tmp_path, name: str, text: str, **kwargs):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    store = KGStore()
    return store, store.load(path, **kwargs)


def _facts(store, world: str, label: str) -> dict[str, list]:
    out: dict[str, list] = {}
    for f in store.facts_about(kg_iri(world, "entity", label)):
        if f.s == kg_iri(world, "entity", label):
            out.setdefault(store.label(f.p) if f.p != RDF_TYPE else "type", []).append(f)
    return out


def test_a_table_is_one_entity_per_row_with_typed_and_linked_values(tmp_path):
    store, report = _load(tmp_path, "players.csv", PLAYERS)
    assert report.format == "csv"
    [shape] = report.tables
    assert (shape.rows, shape.relations, shape.key, shape.row_class) == (4, 6, "name", "Player")
    # Harbor Owls, Fjord Foxes, goalkeeper, striker, winger, defender, Kiel, Bergen, Aarhus
    assert shape.linked == 9
    assert shape.describe() == ("table, 4 rows × 6 relations, key column name, 9 entities linked by value, "
                                "rows typed Player")
    lena = _facts(store, "players", "Lena Vogt")
    assert store.label(lena["team"][0].o) == "Harbor Owls" and not lena["team"][0].o_literal
    assert lena["born"][0].datatype == XSD + "date" and lena["born"][0].o == "1996-03-14"
    assert lena["height"][0].o == "181 cm" and lena["height"][0].o_literal  # the header's unit goes with the number
    assert lena["retired"][0].o == "false" and lena["retired"][0].datatype == XSD + "boolean"
    assert store.label(lena["type"][0].o) == "Player"
    tove = _facts(store, "players", "Tove Randers")
    assert sorted(store.label(f.o) for f in tove["position"]) == ["striker", "winger"]  # one cell, two values
    assert "height" not in _facts(store, "players", "Mara Lind")  # an empty cell is no fact
    # One entity per distinct text across the file: both Harbor Owls rows name the same team.
    assert lena["team"][0].o == tove["team"][0].o
    assert {store.label(f.o) for f in _facts(store, "players", "Mara Lind")["birthplace"]} == {"Bergen"}


def test_a_big_table_goes_through_the_bulk_loader_into_a_new_graph(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text(PLAYERS, encoding="utf-8")
    small = KGStore()
    expected = small.load(path).added
    store = KGStore(tmp_path / "db")
    store.bulk_min_bytes = 1
    report = store.load(path)
    assert report.bulk and report.added == expected and report.format == "csv" and report.tables
    assert sorted(map(str, store.facts_about(kg_iri("players", "entity", "Lena Vogt")))) == \
        sorted(map(str, small.facts_about(kg_iri("players", "entity", "Lena Vogt"))))
    again = store.load(path)  # the graph has data: one transaction, nothing new
    assert not again.bulk and again.added == 0 and store.count() == expected


def test_a_value_naming_another_row_links_to_that_row(tmp_path):
    text = ("name,role,supervisor,notes\n"
            "Agnes Okafor,head nurse,,covers the night desk on Fridays\n"
            "Bram de Wit,staff nurse,agnes okafor,\n")
    store, report = _load(tmp_path, "staff.csv", text)
    bram = _facts(store, "staff", "Bram de Wit")
    assert bram["supervisor"][0].o == kg_iri("staff", "entity", "Agnes Okafor")  # case aside, the row's entity
    agnes = _facts(store, "staff", "Agnes Okafor")
    assert agnes["notes"][0].o_literal  # a phrase said once is text, no entity
    assert agnes["role"][0].o_literal  # written once each, not as names are
    assert report.tables[0].row_class is None  # "staff" is no plural


def test_key_column_by_name_by_option_and_a_missing_option_is_one_line(tmp_path):
    text = "id,name,city\n7,Ann Lee,Oslo\n8,Bo Kim,Oslo\n"
    store, report = _load(tmp_path, "people.csv", text)
    assert report.tables[0].key == "name"
    assert _facts(store, "people", "Ann Lee")["id"][0].o == "7"
    store, report = _load(tmp_path, "people.csv", text, key="ID")
    assert report.tables[0].key == "id" and "name" in _facts(store, "people", "7")
    with pytest.raises(LoadError, match=r"people\.csv: --key town: no column of that name \(columns: id, name, city\)"):
        _load(tmp_path, "people.csv", text, key="town")


def test_type_and_alias_columns_and_title_like_values(tmp_path):
    text = ("title\ttype\tnickname\tauthor\tpages\n"
            "The Salt Orchard\tNovel\tSalt\tInes Marlow\t312\n"
            "Small Hours\tPoetry Collection\t\tLucia Ferrante\t96\n")
    store, report = _load(tmp_path, "books.tsv", text)
    assert report.tables[0].key == "title" and report.tables[0].row_class == "Book"
    orchard = _facts(store, "books", "The Salt Orchard")
    assert [store.label(f.o) for f in orchard["type"]] == ["Novel"]  # the type column wins over the file name
    assert sorted((e.text, e.alias) for e in store.label_entries() if e.iri == kg_iri("books", "entity", "The Salt Orchard")) \
        == [("Salt", True), ("The Salt Orchard", False)]
    assert not orchard["author"][0].o_literal  # written as a name: an entity, though said once
    assert orchard["pages"][0].datatype == XSD + "integer"
    assert "nickname" not in orchard


@pytest.mark.parametrize("text, table", [
    ("head,relation,tail\nOslo,country,Norway\n", False),  # the triple header
    ("Oslo,capital of,Norway\nOslo,population,709037\n", False),  # headerless triples
    ("Oslo,name,Oslo kommune\nBergen,name,Bergen kommune\n", False),  # "name" recurs below: a relation
    ("Oslo,country,Norway,entity\n", False),  # a fourth cell that is a tail_type
    ("name,team\nLena,Owls\n", True),  # two columns: no triple
    ("name,team,born\nLena,Owls,1996-03-14\n", True),  # the header names its key column
    ("title,year,genre,pages\nDune,1965,sci-fi,412\n", True),  # a fourth cell that is no tail_type
])
def test_a_table_is_told_from_a_triple_file(text, table):
    assert is_table(text, ",") is table


def test_key_option_makes_a_three_column_file_a_table():
    assert not is_table("book,author,year\nDune,Frank Herbert,1965\n", ",")
    assert is_table("book,author,year\nDune,Frank Herbert,1965\n", ",", key="book")


def test_semicolon_separated_csv_is_read_as_a_spreadsheet_wrote_it(tmp_path):
    store, report = _load(tmp_path, "huts.csv", "name;valley;beds\nGreystone Hut;Tarn Valley;24\n")
    assert report.tables[0].relations == 2
    assert _facts(store, "huts", "Greystone Hut")["beds"][0].o == "24"


@pytest.mark.parametrize("header, label, unit", [
    ("height_cm", "height", "cm"), ("Length (km)", "length", "km"), ("ascent in m", "ascent", "m"),
    ("Date of Birth", "date of birth", None), ("homeGround", "home ground", None), ("ISBN", "ISBN", None),
    ("price_eur", "price eur", None), ("cm", "cm", None),
])
def test_relation_label_and_unit_of_a_header(header, label, unit):
    assert relation_label(header) == (label, unit)


@pytest.mark.parametrize("stem, cls", [("players", "Player"), ("hiking_trails", "Hiking Trail"), ("libraries", "Library"),
                                       ("boxes", "Box"), ("staff", None), ("data", None), ("Sheet1", None),
                                       ("status", None)])
def test_the_rows_class_from_a_plural_file_name(stem, cls):
    assert row_class(stem) == cls


@pytest.mark.parametrize("text, message", [
    ("name,team,born,team\nLena,Owls,1996-03-14,Foxes\n", r"t\.csv: line 1: columns 2 and 4 are both named 'team'"),
    ("name,team\nLena,Owls,extra\n", r"t\.csv: line 2: 3 cells, the header has 2 columns"),
    ("name,,team\nLena,x,Owls\n", r"t\.csv: line 2: a value in column 2, which has no name in the header"),
    ("name,team\n", r"t\.csv: a header row and no rows"),
])
def test_a_file_that_is_no_table_says_why_in_one_line(tmp_path, text, message):
    with pytest.raises(LoadError, match=message):
        _load(tmp_path, "t.csv", text)


def test_a_row_without_its_key_is_skipped_with_a_warning(tmp_path):
    store, report = _load(tmp_path, "t.csv", "name,team\nLena,Owls\n,Foxes\nLena,Hawks\n")
    assert report.tables[0].rows == 2
    assert any("line 3: no name (the key column), the row is skipped" in w for w in report.warnings)
    assert any("line 4: name 'Lena' again (first on line 2)" in w for w in report.warnings)


def test_a_workbook_is_one_table_per_sheet_linked_across_sheets(tmp_path):
    from datetime import date, datetime

    from openpyxl import Workbook

    book = Workbook()
    trails = book.active
    trails.title = "Trails"
    trails.append(["name", "length_km", "start_hut", "dogs allowed"])
    trails.append(["Falcon Ridge", 14.5, "Greystone Hut", False])
    trails.append(["Larch Loop", 6.0, "Greystone Hut", True])
    huts = book.create_sheet("Huts")
    huts.append(["name", "altitude_m", "open_from"])
    huts.append(["Greystone Hut", 1320, datetime(2024, 6, 1)])
    book.create_sheet("Empty")
    path = tmp_path / "club.xlsx"
    book.save(path)
    store = KGStore()
    report = store.load(path)
    assert report.format == "xlsx"
    assert [(t.sheet, t.rows, t.relations, t.row_class) for t in report.tables] == [
        ("Trails", 2, 3, "Trail"), ("Huts", 1, 2, "Hut")]
    ridge = _facts(store, "club", "Falcon Ridge")
    assert ridge["start hut"][0].o == kg_iri("club", "entity", "Greystone Hut")  # the row of the other sheet
    assert ridge["length"][0].o == "14.5 km" and ridge["dogs allowed"][0].o == "false"
    assert _facts(store, "club", "Larch Loop")["length"][0].o == "6 km"
    hut = _facts(store, "club", "Greystone Hut")
    assert hut["open from"][0].o == date(2024, 6, 1).isoformat() and hut["altitude"][0].o == "1320 m"
    assert report.tables[0].describe().startswith("sheet Trails: table, 2 rows × 3 relations")


def test_a_file_that_is_not_a_workbook_says_so(tmp_path):
    path = tmp_path / "broken.xlsx"
    path.write_bytes(b"name,team\n")
    with pytest.raises(LoadError, match=r"broken\.xlsx: not a readable \.xlsx workbook \(BadZipFile"):
        KGStore().load(path)


def test_kgchat_load_reports_the_table_and_takes_key(tmp_path, capsys):
    path = tmp_path / "players.csv"
    path.write_text(PLAYERS, encoding="utf-8")
    db = str(tmp_path / "db")
    assert kgchat(["load", str(path), "--store", db]) == 0
    out = capsys.readouterr().out
    assert ("players.csv: table, 4 rows × 6 relations, key column name, 9 entities linked by value, "
            "rows typed Player") in out
    assert kgchat(["load", str(path), "--store", str(tmp_path / "db2"), "--key", "team", "--json"]) == 0
    [file] = json.loads(capsys.readouterr().out)["files"]
    assert file["tables"][0]["key"] == "team" and file["tables"][0]["rows"] == 4
    assert kgchat(["load", str(path), "--store", db, "--key", "town"]) == 2
    assert capsys.readouterr().err.strip().endswith("--key town: no column of that name "
                                                    "(columns: name, team, position, born, birthplace, height_cm, retired)")


# --- any table ---------------------------------------------------------------------------------

NAMES = st.text(string.ascii_letters + " ", min_size=1, max_size=12).map(str.strip).filter(bool)
CELLS = st.one_of(st.just(""), NAMES, st.integers(-10**6, 10**6).map(str),
                  st.dates().map(lambda d: d.isoformat()), st.sampled_from(["yes", "no"]))


@st.composite
def tables(draw):
    # headers naming distinct relations (two columns of one relation could give one fact twice)
    header = draw(st.lists(NAMES.map(lambda s: s.replace(" ", "_")).filter(lambda h: h.casefold() != "name"),
                           min_size=2, max_size=6, unique_by=lambda h: relation_label(h)[0].casefold()))
    keys = draw(st.lists(NAMES, min_size=1, max_size=8, unique_by=str.casefold))
    rows = [[key] + [draw(CELLS) for _ in header[1:]] for key in keys]
    return header, rows


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables())
def test_any_table_gives_one_fact_per_filled_cell(tmp_path, table):
    header, rows = table
    text = "\n".join(",".join(r) for r in [["name", *header[1:]], *rows]) + "\n"
    path = tmp_path / "any.csv"
    path.write_text(text, encoding="utf-8")
    store = KGStore()
    report = store.load(path, key="name")
    assert [(t.rows, t.relations) for t in report.tables] == [(len(rows), len(header) - 1)]
    g = bg_graph("any")
    for row in rows:
        subject = kg_iri("any", "entity", row[0])
        facts = [f for f in store.facts_about(subject) if f.s == subject and f.graph == g]
        assert store.label(subject) == row[0]
        # a "type" or alias column makes no relation fact but still one fact per filled cell
        assert len(facts) == sum(bool(c) for c in row[1:]) + (report.tables[0].row_class is not None)


@settings(max_examples=80, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=200))
def test_any_text_is_told_apart_without_an_error(text):
    assert is_table(text, ",") in (True, False)


STAFF = """name,role,supervisor,nickname,type
Ada Quist,nurse,Bo Lund,Adie,Person
Bo Lund,head nurse,,,Person
Cy Moor,porter,Bo Lund,,
"""


def _names_read_back(store: KGStore) -> tuple[list, list[str]]:
    store._changed()  # forget what the loads kept: read every name and relation from the store
    return store.label_entries(), store.relations()


@pytest.mark.parametrize("bulk", [False, True])
def test_the_names_a_table_load_keeps_are_those_read_back(tmp_path, bulk):
    """The store keeps the background's names and relations known across a table's load (the
    name index needs them on the next question): they equal what reading the store gives, for
    a first table, a second one beside an RDF file already asked about, and a bulk load."""
    store = KGStore()
    if bulk:
        store.bulk_min_bytes = 0
    (tmp_path / "players.csv").write_text(PLAYERS, encoding="utf-8")
    (tmp_path / "staff.csv").write_text(STAFF, encoding="utf-8")
    (tmp_path / "towns.ttl").write_text('<urn:x:kiel> <http://www.w3.org/2000/01/rdf-schema#label> "Kiel" .\n'
                                        '<urn:x:kiel> <urn:x:twin> <urn:x:aarhus> .\n', encoding="utf-8")
    store.load(tmp_path / "players.csv")
    kept = store.label_entries(), store.relations()
    assert kept == _names_read_back(store)
    store.load(tmp_path / "towns.ttl")
    store.label_entries()
    store.relations()
    store.load(tmp_path / "staff.csv")
    kept = store.label_entries(), store.relations()
    assert any(e.alias and e.text == "Adie" for e in kept[0])
    assert kept == _names_read_back(store)


def test_a_table_in_a_graph_outside_the_background_names_nothing_there(tmp_path):
    store = KGStore()
    (tmp_path / "players.csv").write_text(PLAYERS, encoding="utf-8")
    store.load(tmp_path / "players.csv", graph="http://example.org/players")
    kept = store.label_entries(), store.relations()
    assert kept == ([], []) == _names_read_back(store)
