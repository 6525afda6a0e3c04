"""Checking a hostile reply takes work proportional to what is checked: a reply is checked up to
MAX_CHECKED_CHARS and says so, and names repeated thousands of times are looked up once."""

from __future__ import annotations

import json

from cli import main as cli
from engine import checking as check
from engine.factcheck import names, verify
from engine.state import Mention


def test_a_long_reply_is_checked_up_to_the_cap_and_says_so(capsys, monkeypatch):
    monkeypatch.setattr(check, "MAX_CHECKED_CHARS", 300)
    reply = " ".join(f"Omar Haddad works in room {i}." for i in range(40))
    assert cli(["check", "--response", reply, "--memory", "--scorer", "bm25", "--json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["checks_truncated"] and "only the first 300 characters of the reply" in err
    assert sum(len(c["claim"]) for c in result["checks"]) <= 300


def test_checked_text_ends_at_a_sentence(monkeypatch):
    monkeypatch.setattr(check, "MAX_CHECKED_CHARS", 30)
    assert check.checked_text("One sentence here. Another one that goes on.") == ("One sentence here.", True)
    assert check.checked_text("Short.") == ("Short.", False)


def test_a_name_repeated_is_looked_up_once_per_distinct_name(monkeypatch):
    calls = []
    real = verify.norm
    monkeypatch.setattr(verify, "norm", lambda text: calls.append(text) or real(text))

    class Index:
        by_norm = {}

    text = "Omar Haddad and " * 200
    verify.Verifier._exact_names(type("V", (), {"index": Index()})(), text, text)
    assert len(calls) == 1


def test_the_capitalized_runs_of_a_reply_are_found_once_for_all_its_mentions(monkeypatch):
    scans = []
    real = names.CAPITALIZED

    class Counting:
        def finditer(self, text, *args):
            scans.append(1)
            return real.finditer(text, *args)

    monkeypatch.setattr(names, "CAPITALIZED", Counting())
    names._capitalized_runs.cache_clear()
    text = "Omar Haddad and " * 100
    for i in range(100):
        start = i * 16 + 5
        assert names.whole_name(text, Mention("Haddad", start, start + 6, "name")) == "Omar Haddad"
    assert len(scans) == 1


def test_texts_are_cut_before_the_tokenizer_sees_them():
    import numpy as np

    from engine.nlp import encoder

    seen = []

    class Encoding:
        ids, attention_mask, type_ids = [1, 2], [1, 1], [0, 0]

    class Tokenizer:
        def encode_batch(self, texts):
            seen.extend(len(t) for t in texts)
            return [Encoding() for _ in texts]

    class Session:
        def run(self, _outputs, feed):
            return [np.zeros((len(feed["ids"]), encoder.DIM), dtype=np.float32)]

    stub = type("S", (), {"tokenizer": Tokenizer(), "session": Session()})()
    encoder.OnnxMiniLM.encode(stub, ["label " * 2_000_000, "short"], 8)
    assert max(seen) == encoder.MAX_TEXT_CHARS and min(seen) == 5


def test_long_texts_go_fewer_to_a_batch():
    import numpy as np

    from engine.nlp import encoder

    class Encoding:
        def __init__(self, n: int):
            self.ids, self.attention_mask, self.type_ids = [7] * n, [1] * n, [0] * n

    class Tokenizer:
        def encode_batch(self, texts):
            return [Encoding(len(t.split())) for t in texts]

    shapes = []

    class Session:
        def run(self, _outputs, feed):
            shapes.append(feed["ids"].shape)
            return [np.tile(feed["mask"].sum(axis=1, keepdims=True).astype(np.float32), (1, encoder.DIM))]

    stub = type("S", (), {"tokenizer": Tokenizer(), "session": Session()})()
    texts = ["w " * 256] * 40 + ["w " * 10] * 100 + ["w " * 3]
    out = encoder.OnnxMiniLM.encode(stub, texts, 64)
    assert out[:, 0].tolist() == [len(t.split()) for t in texts]  # each row is its own text's
    assert all(rows * width <= encoder.BATCH_TOKENS for rows, width in shapes)
    assert shapes == [(64, 10), (37, 10), (16, 256), (16, 256), (8, 256)]
