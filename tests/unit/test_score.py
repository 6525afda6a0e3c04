"""Scoring: the embedding cache, the baselines, the ONNX model, the LLM rating parser."""

from datetime import datetime

import numpy as np
import pytest

from engine.config import Config
from engine.context import TurnContext
from engine.nlp.encoder import Encoder
from engine.nlp.relevance import FEATURES, MODEL_PATH, RelevanceModel
from engine.nlp.sentences import is_node_fact
from engine.stages import candidates, score, verbalize
from engine.state import Mention, TurnState
from kgstore import KGStore

TTL = """
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix o: <urn:kgchat:office:> .
<urn:e:omar> rdfs:label "Omar Haddad" ; a o:Person ; o:phone "+47 555 01 234" ; o:email "omar@example.org" ;
    o:member_of <urn:e:eng> ; o:office <urn:e:r1> .
<urn:e:eng> rdfs:label "Engineering" ; a o:Group .
<urn:e:r1> rdfs:label "Office 101" ; a o:Room .
<urn:e:ev> rdfs:label "Budget Review" ; a o:Event ; o:organizer <urn:e:omar> ; o:location <urn:e:r1> .
"""


@pytest.fixture(scope="module")
def encoder():
    return Encoder()


@pytest.fixture(scope="module")
def model():
    return RelevanceModel()


def _ctx(tmp_path, encoder, model, **cfg):
    path = tmp_path / "kg.ttl"
    path.write_text(TTL, encoding="utf-8")
    store = KGStore()
    store.load(str(path))
    ctx = TurnContext(config=Config(**cfg), store=store, background=store)
    ctx.resources.update(encoder=encoder, scorer=model)
    return ctx


def _scored(ctx, text, mentions):
    state = TurnState(session_id="s", turn=1, text=text, now=datetime(2026, 3, 2, 9))
    state.mentions = mentions
    state.rewritten = text
    for stage in (candidates, verbalize, score):
        stage.run(state, ctx)
    return state


def test_embedding_cache_by_content_in_memory_and_on_disk(tmp_path, encoder):
    disk = Encoder(tmp_path / "cache")
    disk._model = encoder.model  # share the loaded model; the cache is what is under test
    first = disk.encode(["Omar Haddad's office is Office 101", "hello"])
    assert disk.encoded == 2
    again = disk.encode(["hello", "Omar Haddad's office is Office 101"])
    assert disk.encoded == 2 and np.allclose(again[1], first[0])
    reopened = Encoder(tmp_path / "cache")
    assert np.allclose(reopened.encode(["hello"])[0], first[1])
    assert reopened.encoded == 0 and reopened._model is None  # served from disk, model never loaded
    assert abs(float(np.linalg.norm(first[0])) - 1.0) < 1e-4


def test_model_file_matches_the_features_and_reports_its_device(model):
    assert MODEL_PATH.exists()
    assert model.features == FEATURES
    assert model.device in ("CPU", "CUDA")
    assert 0 < model.prizes["scale"] and 0 <= model.prizes["threshold"] <= 1
    p = model.predict(np.zeros((3, len(FEATURES)), dtype=np.float32))
    assert p.shape == (3,) and ((p >= 0) & (p <= 1)).all()


@pytest.mark.parametrize("scorer", ["learned", "bm25", "sbert"])
def test_the_asked_attribute_outscores_the_others(tmp_path, encoder, model, scorer):
    ctx = _ctx(tmp_path, encoder, model, scorer=scorer)
    state = _scored(ctx, "What is Omar Haddad's phone number?",
                    [Mention("Omar Haddad", 8, 19, "name", entity="urn:e:omar", p=1.0)])
    edges = [c for c in state.candidates if not is_node_fact(c.fact)]
    best = max(edges, key=lambda c: c.score)
    assert best.fact.p == "urn:kgchat:office:phone", [(c.text, c.score) for c in state.candidates]
    assert set(best.features) == set(FEATURES)
    if scorer == "learned":  # above the PCST prize threshold chosen on dev
        assert best.score >= model.prizes["threshold"]


def test_learned_scores_are_probabilities_and_salience_counts(tmp_path, encoder, model):
    ctx = _ctx(tmp_path, encoder, model)
    state = _scored(ctx, "Tell me about Omar Haddad", [Mention("Omar Haddad", 14, 25, "name", entity="urn:e:omar", p=1.0)])
    assert all(0.0 <= c.score <= 1.0 for c in state.candidates)
    direct = [c.score for c in state.candidates if c.fact.s == "urn:e:omar" and c.fact.p.endswith("email")]
    far = [c.score for c in state.candidates if c.fact.s == "urn:e:ev" and c.fact.p.endswith("location")]
    assert direct and far and direct[0] > far[0]


def test_non_english_text_scores_without_error(tmp_path, encoder, model):
    ctx = _ctx(tmp_path, encoder, model)
    state = _scored(ctx, "Wie lautet die Telefonnummer von Omar Haddad? 電話番号は？",
                    [Mention("Omar Haddad", 33, 44, "name", entity="urn:e:omar", p=1.0)])
    assert state.candidates and all(np.isfinite(c.score) for c in state.candidates)


def test_llm_ratings_are_parsed_robustly():
    text = "Sure! Here are the ratings:\n1: 0.9\n[2] - 0.10\n3) score: 1\n4. 7.5\n9: 0.5\n 5 = .25\nnonsense"
    assert score.parse_ratings(text, 5) == {0: 0.9, 1: 0.1, 2: 1.0, 4: 0.25}
    assert score.parse_ratings("I cannot rate these.", 3) == {}


def test_llm_scorer_blends_and_survives_a_useless_model(tmp_path, encoder, model):
    from tests.support.fakes import ScriptedLLM

    ctx = _ctx(tmp_path, encoder, model, scorer="llm")
    ctx.resources["llm"] = ScriptedLLM(["1: 0.0\n2: 0.0\n3: 0.0\n4: 0.0\n5: 0.0\n6: 0.0\n7: 0.0\n8: 0.0\n9: 0.0\n10: 0.0\n11: 0.0\n12: 0.0"])
    state = _scored(ctx, "What is Omar Haddad's phone number?",
                    [Mention("Omar Haddad", 8, 19, "name", entity="urn:e:omar", p=1.0)])
    rated = [c for c in state.candidates if "llm" in c.features]
    assert rated and all(c.score <= 0.5 for c in rated)
    ctx.resources["llm"] = ScriptedLLM(["no idea"])
    state = _scored(ctx, "What is Omar Haddad's phone number?",
                    [Mention("Omar Haddad", 8, 19, "name", entity="urn:e:omar", p=1.0)])
    assert "no parsable ratings" in state.candidates_note


def test_prefetch_warms_the_cache_for_the_turns_of_a_small_kg(tmp_path, encoder, model):
    from engine.prefetch import prefetch

    ctx = _ctx(tmp_path, encoder, model)
    fresh = Encoder()
    fresh._model = encoder.model
    ctx.resources["encoder"] = fresh
    assert prefetch(ctx) > 0
    before = fresh.encoded
    _scored(ctx, "Where is Office 101?", [Mention("Office 101", 9, 19, "name", entity="urn:e:r1", p=1.0)])
    # only the turn itself is new (its windows, masked and not, and clauses), no fact texts or
    # relation labels
    new = fresh.encoded - before
    assert new <= 5
    assert prefetch(ctx, max_triples=1) == 0


def test_a_class_the_question_names_still_says_which_relation_is_asked(tmp_path, encoder, model):
    # "group" links to the class o:Group; masked out like a name, the question would read
    # "Which is Omar Haddad in?" and no longer ask for the member-of relation.
    ctx = _ctx(tmp_path, encoder, model)
    state = _scored(ctx, "Which group is Omar Haddad in?",
                    [Mention("group", 6, 11, "name", entity="urn:kgchat:office:Group", p=1.0),
                     Mention("Omar Haddad", 15, 26, "name", entity="urn:e:omar", p=1.0)])
    member = next(c for c in state.candidates if c.fact.p == "urn:kgchat:office:member_of")
    assert member.features["mcos_pred_rank"] == 1.0, {c.text: c.features["mcos_pred"] for c in state.candidates}
