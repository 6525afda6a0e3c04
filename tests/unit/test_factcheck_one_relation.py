"""Claims a checker reads from what a user's KG holds, not from a word list: the one date a thing
has is not the date of any event a verb names; the one relation two things share is read from
words WordNet ties to it only when nothing else could be meant; a relation whose label names its
object ("station manager") is not turned round; a class word beside a name states no relation.
One small KG of a cider orchard, with its own predicate names."""

from __future__ import annotations

import pytest

from engine.lexicon import lexicon
from engine.relations import quantities
from tests.support.kb import checks_of, from_turtle, verdict

needs_wordnet = pytest.mark.skipif(lexicon() is None, reason="WordNet 3.0 is not installed (make wordnet)")

ORCHARD = """
@prefix o: <http://orchard.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
o:establishedYear rdfs:label "year established" .
o:sownWith rdfs:label "sown with" .
o:soilType rdfs:label "soil type" .
o:blockManager rdfs:label "block manager" .
o:partOf rdfs:label "part of" .
o:pressingTime rdfs:label "pressing time" .
o:seedSupplier rdfs:label "seed supplier" .
o:treeSupplier rdfs:label "tree supplier" .
o:Block rdfs:label "orchard block" .
o:Farm rdfs:label "farm" .
o:Person rdfs:label "person" .
o:hill a o:Block ; rdfs:label "Hill Block" ; o:sownWith o:clover ; o:soilType o:loam ; o:blockManager o:ana .
o:vale a o:Block ; rdfs:label "Vale Block" ; o:partOf o:farm ; o:seedSupplier o:kernow .
o:kernow rdfs:label "Kernow Seeds" .
o:cove a o:Block ; rdfs:label "Cove Block" ; o:treeSupplier o:kernow .
o:farm a o:Farm ; rdfs:label "Pellow Farm" ; o:establishedYear "1994" ; o:pressingTime "150 minutes" .
o:ana a o:Person ; rdfs:label "Ana Trevail" .
o:clover rdfs:label "white clover" .
o:loam rdfs:label "silty loam" .
"""


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("orchard"), ORCHARD)


def test_the_one_date_a_thing_has_is_not_the_date_of_another_event(kg):
    assert verdict(kg, "Pellow Farm was established in 1994.") == "supported"
    assert verdict(kg, "Pellow Farm was established in 1990.") == "contradicted"
    # the KG records no sale, nor a renaming: 1994 is when it was established
    assert verdict(kg, "Pellow Farm was sold in 1994.") == "nei"
    assert verdict(kg, "Pellow Farm was renamed in 2011.") == "nei"


@needs_wordnet
def test_the_one_relation_between_two_things_read_from_words_wordnet_ties_to_it(kg):
    # "planted" and "sown" are both ways of putting something in the ground
    assert verdict(kg, "Hill Block is planted with white clover.") == "supported"


def test_words_tied_to_no_relation_leave_the_one_relation_unconfirmed(kg):
    assert verdict(kg, "Hill Block is fenced with white clover.") == "nei"


def test_a_relation_whose_label_names_its_object_is_not_read_backwards(kg):
    # Ana manages Hill Block; the KG gives Vale Block no manager: nothing says she does not manage it too
    assert verdict(kg, "Vale Block is managed by Ana Trevail.") != "contradicted"


def test_a_duration_said_with_and_a_half(kg):
    assert [q.value for q in quantities("two and a half hours, 3 and a half days")] == [150.0, 5040.0]
    assert verdict(kg, "Pressing at Pellow Farm takes about two and a half hours.") == "supported"
    assert verdict(kg, "Pressing at Pellow Farm takes about three and a half hours.") == "contradicted"


def test_a_plural_noun_names_the_relation_s_own_kind(kg):
    # Kernow Seeds supplied Vale Block's seeds, not its trees: the KG gives Vale Block no tree supplier
    assert verdict(kg, "Kernow Seeds supplied the seeds for Vale Block.") == "supported"
    assert verdict(kg, "Kernow Seeds supplied the trees for Vale Block.") == "nei"


def test_a_unit_names_the_measure_whatever_the_verb(kg):
    assert verdict(kg, "Pressing at Pellow Farm runs for about five hours.") == "contradicted"


def test_a_relative_clause_after_a_verb_the_parser_reads_as_a_noun(kg):
    checks = checks_of(kg, "Ana Trevail sings in Vale Block, which is supplied by Kernow Seeds.")
    assert [c.claim for c in checks] == ["Ana Trevail sings in Vale Block.", "Vale Block is supplied by Kernow Seeds."]
