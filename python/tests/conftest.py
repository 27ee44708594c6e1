"""Shared fixtures: the data folder and the repository's root."""

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.fixture
def data() -> Path:
    """The folder of the tests' spec files."""
    return HERE / "data"


@pytest.fixture
def repo() -> Path:
    """The repository's root (docs/, grammars/)."""
    return HERE.parent.parent
