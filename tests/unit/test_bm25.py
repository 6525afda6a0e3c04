"""The candidates' BM25 is rank_bm25's BM25Okapi to the last bit (the relevance model was
trained on its numbers)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from engine.stages.score.bm25 import Bm25
from engine.stages.score.features import bm25_scores

WORDS = st.sampled_from("choir conductor venue hall church sunday friday singers tenor alto bass 1952".split())
DOCS = st.lists(st.lists(WORDS, min_size=1, max_size=9), min_size=1, max_size=40)


@given(DOCS, st.lists(st.one_of(WORDS, st.just("unheard")), max_size=6))
def test_the_same_scores_as_rank_bm25(corpus, query):
    assert np.array_equal(Bm25(corpus).scores(query), BM25Okapi(corpus).get_scores(query))


def test_several_queries_over_one_set_of_texts():
    texts = ["Voces Marisca sings at St. Aldric's Church", "Fenwick Barbershop Harmony sings at the Town Hall",
             "Caernant Male Voices was founded in 1936"]
    by_venue, by_year, nothing = bm25_scores(texts, "Which choirs sing at the Town Hall?", "founded in 1936", "the")
    assert by_venue.argmax() == 1 and by_year.argmax() == 2
    assert not nothing.any()
