"""Hostile SPARQL: nesting deep enough to overflow the parser's stack is refused before parsing
(the process, and the app's console, go on); FROM names the default graph."""

from __future__ import annotations

import http.server
import json
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli import main as cli
from kgstore import KGStore
from kgstore.errors import BadInput
from kgstore.query import MAX_DEPTH, BoundedQuery, shape

EX = "http://example.org/"


@pytest.fixture
def db(tmp_path):
    for name, n in (("one", 1), ("two", 2)):
        (tmp_path / f"{name}.nt").write_text("".join(f"<{EX}s{i}> <{EX}p> <{EX}o> .\n" for i in range(n)))
    path = str(tmp_path / "db")
    assert cli(["load", str(tmp_path / "one.nt"), str(tmp_path / "two.nt"), "--store", path]) == 0
    return path


@pytest.mark.parametrize("query", ["SELECT * WHERE { FILTER(" + "(" * 6000 + "1" + ")" * 6000 + ") }",
                                   "SELECT * WHERE " + "{" * 20000 + "}" * 20000])
def test_deep_nesting_is_one_line_and_exit_2(db, capsys, query):
    assert cli(["sparql", query, "--store", db]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"more than the {MAX_DEPTH} levels" in err


def test_the_console_query_refuses_it_before_parsing():
    with pytest.raises(BadInput, match="nested"):
        BoundedQuery(KGStore(), "ASK { " + "{" * (MAX_DEPTH + 1) + "}" * (MAX_DEPTH + 1) + " }")


def test_brackets_in_strings_iris_and_comments_do_not_count():
    text = 'SELECT * WHERE { ?s ?p "(((" . ?s ?p """{{\n{""" . ?s ?p <a#(((> } # ((((\n'
    assert shape(text) == (1, False)


def test_from_names_the_default_graph(db, capsys):
    count = "SELECT (COUNT(*) AS ?n) {from} WHERE {{ ?s ?p ?o }}"
    assert cli(["sparql", count.format(**{"from": ""}), "--store", db, "--json"]) == 0
    assert '"n": "3"' in capsys.readouterr().out
    assert cli(["sparql", count.format(**{"from": "FROM <urn:kgchat:graph:bg:two>"}), "--store", db, "--json"]) == 0
    assert '"n": "2"' in capsys.readouterr().out
    named = "SELECT (COUNT(*) AS ?n) FROM NAMED <urn:kgchat:graph:bg:one> WHERE { GRAPH ?g { ?s ?p ?o } }"
    assert cli(["sparql", named, "--store", db, "--json"]) == 0
    assert '"n": "1"' in capsys.readouterr().out


@given(st.integers(0, 300), st.sampled_from("({["))
def test_shape_counts_nesting(n, bracket):
    close = {"(": ")", "{": "}", "[": "]"}[bracket]
    assert shape("ASK " + bracket * n + close * n)[0] == n


# ---- a hostile endpoint -----------------------------------------------------------------------

class Endpoint(http.server.BaseHTTPRequestHandler):
    """Answers the start-up probe properly, then as `mode` says."""

    mode = "trickle"
    seen = 0
    stop = threading.Event()

    def do_POST(self):
        type(self).seen += 1
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.end_headers()
        if type(self).seen == 1:
            self.wfile.write(json.dumps({"head": {}, "boolean": True}).encode())
        elif self.mode == "trickle":  # a byte at a time, each well within the per-read timeout
            while not self.stop.is_set():
                self.wfile.write(b" ")
                self.wfile.flush()
                self.stop.wait(0.05)
        elif self.mode == "huge":
            self.wfile.write(b'{"results": {"bindings": [' + b'{}, ' * 100_000 + b"{}]}}")
        elif self.mode == "malformed":
            self.wfile.write(json.dumps({"results": {"bindings": [{"s": 1, "p": {"value": 2}}]}}).encode())
        else:  # rows without the variables asked for
            self.wfile.write(json.dumps({"results": {"bindings": [{"x": {"type": "literal", "value": "a"}}]}}).encode())

    def log_message(self, *args):
        pass


@pytest.mark.parametrize("mode,says", [("trickle", "did not answer within 0.5 s"), ("huge", "answered more than"),
                                       ("malformed", "not SPARQL JSON results"), ("unbound", "without the variables")])
def test_a_hostile_endpoint_ends_in_remote_unavailable(mode, says):
    from kgstore.errors import RemoteUnavailable
    from kgstore.remote import SparqlBackground

    handler = type("E", (Endpoint,), {"mode": mode, "seen": 0, "stop": threading.Event()})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        remote = SparqlBackground(f"http://127.0.0.1:{server.server_address[1]}/sparql", timeout=0.5)
        remote.max_answer_bytes = 100_000
        with pytest.raises(RemoteUnavailable, match=says):
            remote.types(EX + "a")
        remote.close()
    finally:
        handler.stop.set()
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("url", ["http://[", "ftp://example.org/sparql", "sparql", "http://", "http://a b/"])
def test_an_endpoint_url_that_is_not_http_is_one_line(url, capsys):
    assert cli(["overview", "--sparql", url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"kgchat: error: --sparql {url}: ")
