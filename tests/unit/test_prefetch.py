"""The wait before the first question does not grow with the KG: a KG past the warming limit
is not embedded up front (its turns embed their own candidates)."""

from engine.config import Config
from engine.context import TurnContext
from engine.prefetch import prefetch
from kgstore import KGStore
from kgstore.terms import Fact


class RefusingEncoder:
    encoded = 0

    def encode(self, texts):
        raise AssertionError(f"{len(texts)} texts embedded up front")


def test_a_mid_size_kg_is_not_embedded_at_start_up():
    store = KGStore()
    ex = "http://example.org/shop/"
    # 2,400 triples: bicycles, each with a frame size and a mechanic among twenty
    facts = [Fact(f"{ex}bike{i}", f"{ex}mechanic", f"{ex}mechanic{i % 20}") for i in range(1_200)]
    facts += [Fact(f"{ex}bike{i}", f"{ex}frame", f"{ex}size{i % 5}") for i in range(1_200)]
    store.add(facts, "urn:kgchat:graph:bg:shop")
    ctx = TurnContext(config=Config(memory=True, demo="none"), store=store, background=store,
                      resources={"encoder": RefusingEncoder()})
    assert prefetch(ctx) == 0
