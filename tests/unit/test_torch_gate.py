import sys
import threading

from engine.nlp import dependency
from engine.nlp.torch_gate import with_torch, without_torch


def test_torch_is_hidden_only_inside_the_gate_and_only_when_not_loaded(monkeypatch):
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    with without_torch():
        assert sys.modules["torch"] is None
    assert "torch" not in sys.modules
    loaded = object()
    monkeypatch.setitem(sys.modules, "torch", loaded)
    with without_torch():
        assert sys.modules["torch"] is loaded
    assert sys.modules["torch"] is loaded


def test_an_import_with_torch_waits_for_the_one_without_it(monkeypatch):
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    seen = []
    inside = threading.Event()

    def importer():
        inside.wait()
        with with_torch():
            seen.append(sys.modules.get("torch", "absent"))

    worker = threading.Thread(target=importer)
    worker.start()
    with without_torch():
        inside.set()
        worker.join(timeout=0.5)  # it cannot enter while torch is hidden
        assert seen == []
    worker.join()
    assert seen == ["absent"]


def test_two_threads_asking_first_load_the_parser_once(monkeypatch):
    loads = []
    both = threading.Barrier(2)

    def load():
        loads.append(1)
        try:
            both.wait(timeout=1)  # a second load at the same time would meet the first here
        except threading.BrokenBarrierError:
            pass
        return "nlp"

    monkeypatch.setattr(dependency, "_load", load)
    dependency.parser.cache_clear()
    try:
        start = threading.Barrier(2)
        got = []

        def ask():
            start.wait()
            got.append(dependency.parser())

        threads = [threading.Thread(target=ask) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert loads == [1] and got == ["nlp", "nlp"]
    finally:
        dependency.parser.cache_clear()


def test_preparing_a_session_loads_the_parser_a_first_check_needs(tmp_path, monkeypatch):
    from engine.config import Config
    from engine.session import Session
    from engine.setup import build_context

    kg = tmp_path / "kg.ttl"
    kg.write_text('<urn:a> <http://www.w3.org/2000/01/rdf-schema#label> "Ada" .\n', encoding="utf-8")
    loads = []
    monkeypatch.setattr(dependency, "_load", lambda: loads.append(1) or "nlp")
    dependency.parser.cache_clear()
    try:
        Session(build_context(Config(memory=True, demo="none", kg=[str(kg)])), "test").prepare()
        assert loads == [1]
    finally:
        dependency.parser.cache_clear()
