"""Helpers for tests that run servers on 127.0.0.1: a free port, and the Oxigraph server holding a store's dump."""

import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest


def free_port() -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


OXIGRAPH = Path(sys.executable).with_name("oxigraph")


class OxigraphServer:
    """`oxigraph serve` on a free loopback port, the union of its graphs as the default graph."""

    def __init__(self):
        if not OXIGRAPH.exists():
            pytest.skip("the oxigraph server (pip package oxigraph, test extra) is not installed")
        self.port = free_port()
        self.proc = subprocess.Popen([str(OXIGRAPH), "serve", "--bind", f"127.0.0.1:{self.port}", "--union-default-graph"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.proc.stdout.readline()  # blocks until the server says it listens (or exits)
        assert "Listening" in line, line
        self.base = f"http://127.0.0.1:{self.port}"
        self.query_url = self.base + "/query"

    def put(self, nquads: bytes) -> None:
        r = httpx.post(self.base + "/store", content=nquads, headers={"Content-Type": "application/n-quads"}, timeout=30)
        assert r.status_code in (200, 201, 204), r.text

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()
