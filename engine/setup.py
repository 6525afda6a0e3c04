"""Turn a Config into a ready TurnContext: open the store, load the knowledge, pick the background."""

from __future__ import annotations

from engine.config import Config
from engine.context import TurnContext


def build_context(config: Config) -> TurnContext:
    from kgstore import KGStore, demo_path
    from rules.reasoner import validate_rule_files

    # Every rule file is parsed before anything is opened: a syntax error stops start-up with
    # its file and line, never a session running on half the rules.
    rules = validate_rule_files(config.rules, config.trust_rules)
    store = KGStore(None if config.memory else config.store)
    for path in config.kg:
        store.load(path, format=config.format, dialogue_id=config.dialogue_id, key=config.key)
    if not config.kg and not config.sparql and config.demo != "none" and store.count() == 0:
        store.load(demo_path(config.demo), dialogue_id=config.dialogue_id)
    background = store
    if config.sparql:
        from engine.background import OutageTolerantBackground
        from kgstore.remote import SparqlBackground

        background = OutageTolerantBackground(SparqlBackground(config.sparql, timeout=config.sparql_timeout))
    return TurnContext(config=config, store=store, background=background, resources={"rules": rules})
