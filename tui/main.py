"""`kgchat [options]`: start the app."""

from __future__ import annotations

import os
import sys

from engine.config import Config, ConfigError, add_config_options, default_data_dir, load_config
from engine.options import ArgumentParser


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="kgchat", description="Chat with a knowledge graph: the Textual app (keys: F1 inside the app).")
    add_config_options(parser)
    return parser


def app_config(argv: list[str]) -> Config:
    """The config from flags and TOML, with the app's own default: sessions persist in the XDG
    data dir unless --memory or --store says otherwise. Unknown `[keys]` names are bad input."""
    from tui.app import BINDING_IDS

    config = load_config(build_parser().parse_args(argv))
    unknown = sorted(set(config.keys) - BINDING_IDS)
    if unknown:
        raise ConfigError(f"[keys]: unknown action {', '.join(map(repr, unknown))} "
                          f"(choose from {', '.join(sorted(BINDING_IDS))})")
    if not config.memory and not config.store:
        config.store = str(default_data_dir() / "store")
    return config


def main(argv: list[str]) -> int:
    config = app_config(argv)
    from engine.llm import check_model

    check_model(config)  # a missing or corrupt GGUF is one clear error before the screen switches
    from tui.app import KGChatApp

    app = KGChatApp(config)
    app.run()
    code = int(app.return_code or 0)
    from kgstore.query import busy

    if busy():  # a console query still inside pyoxigraph: see kgstore.query.busy
        sys.stdout.flush()
        os._exit(code)
    return code
