"""SparqlBackground against a real Oxigraph server on loopback, and against stubs that misbehave."""

from __future__ import annotations

import http.server
import json
import threading

import pytest

from kgstore import KGStore, demo_path
from kgstore.errors import BadInput, RemoteUnavailable
from kgstore.remote import SparqlBackground
from kgstore.vocab import OFFICE_CLASSES, WD, office_entity
from tests.support.loopback import OxigraphServer, free_port


@pytest.fixture(scope="module")
def local() -> KGStore:
    s = KGStore()
    s.load(demo_path("office"))
    s.load(demo_path("wikidata"))
    return s


@pytest.fixture(scope="module")
def server(local):
    srv = OxigraphServer()
    srv.put(local.dump())
    yield srv
    srv.stop()


@pytest.fixture
def remote(server):
    r = SparqlBackground(server.query_url, timeout=5)
    yield r
    r.close()


def office(kind: str, key: str) -> str:
    return office_entity("office-demo", kind, key)


SEEDS = [[WD + "Q25188"], [WD + "Q38111", WD + "Q25191"], [WD + "Q615"], [office("person", "person_01")],
         [office("room", "Meeting Room Beta")]]


@pytest.mark.parametrize("hops", [1, 2])
@pytest.mark.parametrize("seeds", SEEDS, ids=lambda s: s[0].rsplit(":", 1)[-1].rsplit("/", 1)[-1])
def test_neighbourhoods_over_http_equal_the_embedded_ones(local, remote, seeds, hops):
    here = local.neighborhood(seeds, hops=hops, cap=5000)
    there = remote.neighborhood(seeds, hops=hops, cap=5000)
    assert not here.capped and not there.capped
    assert {(f.key, f.o_literal, f.datatype, f.lang) for f in there.facts} == {
        (f.key, f.o_literal, f.datatype, f.lang) for f in here.facts}
    assert there.hop == here.hop


def test_a_capped_neighbourhood_is_capped_the_same_way(local, remote):
    here = local.neighborhood([WD + "Q5"], hops=1, cap=20)  # "human": every person points at it
    there = remote.neighborhood([WD + "Q5"], hops=1, cap=20)
    assert here.capped and there.capped and len(there.facts) == len(here.facts) == 20


def test_labels_types_and_entities_of_type_equal_the_embedded_ones(local, remote):
    iris = [WD + "Q25188", WD + "Q38111", "http://www.wikidata.org/prop/direct/P57",
            "http://www.wikidata.org/prop/direct/P1343", office("person", "person_01"), "urn:nothing:here_x"]
    assert remote.labels(iris) == local.labels(iris)
    assert remote.label(WD + "Q615") == "Lionel Messi"
    assert remote.types(WD + "Q25188") == local.types(WD + "Q25188")
    assert set(remote.entities_of_type(OFFICE_CLASSES["room"])) == set(local.entities_of_type(OFFICE_CLASSES["room"]))
    assert set(remote.label_entries()) == set(local.label_entries())
    assert remote.count() == local.count()


def test_find_labels_matches_runs_of_words_by_index_lookups(remote):
    found = {(e.text, e.iri, e.alias) for e in remote.find_labels("who directed inception with Leo DiCaprio?")}
    assert ("Inception", WD + "Q25188", False) in found
    assert ("Leo DiCaprio", WD + "Q38111", True) in found


def test_user_text_never_breaks_out_of_a_query(remote):
    hostile = 'x" } ; DROP ALL ; SELECT * WHERE { ?s ?p "'
    assert remote.find_labels(hostile) == []
    assert remote.label("urn:x> } DROP ALL {") == "urn:x> } DROP ALL {"  # not an IRI: no query at all
    assert remote.neighborhood(['http://example.org/a"b'], hops=1).facts == []
    assert remote.count() > 1000


def test_endpoint_down_at_start_names_the_url():
    url = f"http://127.0.0.1:{free_port()}/query"
    with pytest.raises(BadInput, match=rf"--sparql {url}: .*unreachable"):
        SparqlBackground(url, timeout=1)


def test_endpoint_stopped_mid_session_raises_remote_unavailable(local):
    srv = OxigraphServer()
    try:
        srv.put(local.dump())
        r = SparqlBackground(srv.query_url, timeout=2)
        assert r.neighborhood([WD + "Q25188"]).facts
        srv.stop()
        assert r.neighborhood([WD + "Q25188"]).facts  # cached for the session
        with pytest.raises(RemoteUnavailable, match="unreachable"):
            r.neighborhood([WD + "Q615"])
        r.close()
    finally:
        srv.stop()


class Stub(http.server.BaseHTTPRequestHandler):
    """Answers the first request (the start-up probe) properly, then misbehaves."""

    mode = "slow"
    release = threading.Event()
    seen = 0

    def do_POST(self):
        type(self).seen += 1
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if type(self).seen == 1:
            body = json.dumps({"head": {}, "boolean": True}).encode()
        elif self.mode == "slow":
            self.release.wait(30)  # longer than the client's timeout: released at teardown
            body = b"{}"
        else:
            body = b"<html>not what you asked for</html>"
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.mark.parametrize("mode,message", [("slow", "did not answer within 0.3 s"), ("garbage", "not SPARQL JSON results")])
def test_slow_or_garbage_endpoints_raise_remote_unavailable(mode, message):
    handler = type("S", (Stub,), {"mode": mode, "release": threading.Event(), "seen": 0})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        r = SparqlBackground(f"http://127.0.0.1:{server.server_address[1]}/sparql", timeout=0.3)
        with pytest.raises(RemoteUnavailable, match=message):
            r.neighborhood([WD + "Q25188"])
        r.close()
    finally:
        handler.release.set()
        server.shutdown()
        server.server_close()


def _retrieved(capsys, argv: list[str]) -> list[dict]:
    from cli import main as kgchat

    assert kgchat(argv) == 0
    turns = json.loads(capsys.readouterr().out)["turns"]
    return [{"mentions": [m["entity"] for m in t["mentions"]], "derived": len(t["derived"]),
             "retrieved": [(r["s"], r["p"], r["o"], r["score"]) for r in t["retrieved"]]} for t in turns]


@pytest.mark.slow
@pytest.mark.parametrize("index", [0, 1])
def test_retrieval_over_the_server_equals_the_embedded_store_on_dev_dialogues(tmp_path, capsys, index):
    from harness.office import load_split

    dialogue_id, dialogue = list(load_split("dev").items())[index]
    path = tmp_path / "dev.json"
    path.write_text(json.dumps({dialogue_id: dialogue}))
    world = KGStore()
    world.load(path, dialogue_id=dialogue_id)
    srv = OxigraphServer()
    try:
        srv.put(world.dump())
        common = ["--dialogue", str(path), "--dialogue-id", dialogue_id, "--scorer", "bm25", "--json",
                  "--now", dialogue["now"], "--reason-timeout-ms", "60000", "--memory"]
        embedded = _retrieved(capsys, ["retrieve", "--kg", str(path)] + common)
        served = _retrieved(capsys, ["retrieve", "--sparql", srv.query_url] + common)
    finally:
        srv.stop()
    assert embedded == served
    assert any(t["retrieved"] for t in embedded)
