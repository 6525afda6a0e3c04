"""Fixtures shared by the test folders (unit, integration, tui); helpers that are not fixtures live
in tests/support/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.office import office_turtle


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """No user config, no user data dir: the test's own temporary ones."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def kg_file(isolated) -> Path:
    path = isolated / "office.ttl"
    path.write_text(office_turtle(), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def shared():
    """Engine resources worth building once for all the apps of this module (the encoder)."""
    return {}
