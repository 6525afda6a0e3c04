"""`kgchat learn`: the rule weights become LFI parameters and come back as a usable rule file."""

from __future__ import annotations

import json

from cli import main as cli
from harness.learn import WEIGHT, tunable, with_weights
from rules.reasoner import RULES_DIR, RuleSet


def test_weights_become_tunable_and_are_written_back():
    text = "0.5::a(X) :- b(X).\n% 0.3::not a rule\nc(1).\n.25::d(X) :- e(X).\n"
    assert tunable(text) == "t(0.5)::a(X) :- b(X).\n% 0.3::not a rule\nc(1).\nt(.25)::d(X) :- e(X).\n"
    assert with_weights(text, [0.1, 0.9]) == "0.1000::a(X) :- b(X).\n% 0.3::not a rule\nc(1).\n0.9000::d(X) :- e(X).\n"


def test_learn_writes_a_rule_file_that_replaces_the_built_in_one(tmp_path, capsys):
    out = tmp_path / "entity_linking.pl"
    assert cli(["learn", "--split", "train", "--limit", "1", "--max-iter", "2", "--out", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    original = (RULES_DIR / "entity_linking.pl").read_text(encoding="utf-8")
    assert result["examples"] > 0 and len(result["rows"]) == len(WEIGHT.findall(original))
    assert all(0.0 <= r["learned"] <= 1.0 for r in result["rows"])
    assert any(abs(r["learned"] - r["start"]) > 1e-3 for r in result["rows"])
    rules = RuleSet.load([str(out)])
    rules.prepared()  # parses and prepares as the replacement of the built-in linking rules
    assert [p.name for p in rules.files] == ["commonsense.pl", "generic.pl", "entity_linking.pl"]


def test_learn_rejects_bad_options(tmp_path, capsys):
    assert cli(["learn", "--limit", "0"]) == 2
    assert cli(["learn", "--out", str(tmp_path / "missing" / "x.pl")]) == 2
    assert "--out" in capsys.readouterr().err
