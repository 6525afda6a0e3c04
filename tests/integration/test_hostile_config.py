"""Wrong types in a config file are one line naming the file and option, for every option
(those without a default included); a TOML date-time is a valid clock."""

from __future__ import annotations

from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.config import Config, ConfigError, load_config

TOML_VALUES = {"int": "42", "float": "2.5", "bool": "true", "string": '"x"', "datetime": "1979-05-27T07:32:00",
               "date": "1979-05-27", "list": "[1, 2]", "table": "{ a = 1 }", "strings": '["a"]'}
NAMES = [f.name for f in fields(Config)]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(NAMES), st.sampled_from(sorted(TOML_VALUES)))
def test_any_value_for_any_option_is_taken_or_one_config_error(tmp_path_factory, name, kind):
    toml = tmp_path_factory.mktemp("cfg") / "config.toml"
    if kind == "table":
        toml.write_text(f"[{name}]\na = 1\n", encoding="utf-8")
    else:
        toml.write_text(f"{name} = {TOML_VALUES[kind]}\n", encoding="utf-8")
    try:
        cfg = load_config(path=toml)
    except ConfigError as exc:
        assert str(exc).startswith(f"{toml}: option '{name}' ") and "\n" not in str(exc)
        return
    default = getattr(Config(), name)
    value = getattr(cfg, name)
    expected = str if default is None else (int, float) if isinstance(default, float) else type(default)
    assert isinstance(value, expected)
    assert not isinstance(value, list) or all(isinstance(v, str) for v in value)


@pytest.mark.parametrize("name", ["format", "store", "sparql", "model", "rules", "kg"])
def test_numbers_for_text_options_are_refused(tmp_path, name):
    toml = tmp_path / "config.toml"
    toml.write_text(f"{name} = 42\n" if name not in ("rules", "kg") else f"{name} = [42]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=f"option '{name}' must"):
        load_config(path=toml)


def test_a_toml_date_time_sets_the_clock(tmp_path):
    toml = tmp_path / "config.toml"
    toml.write_text("now = 2024-03-05T09:30:00\n", encoding="utf-8")
    assert load_config(path=toml).now == "2024-03-05T09:30:00"
