"""Shared fixtures: the data folder and the repository's root; `require`, the one rule for
optional components."""

import importlib
import os
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


def require(module: str):
    """Imports `module`; without it the test skips, except under CI (`CI` set, as
    tests/python/run.sh and .ci/run have it), where a missing component fails the test."""
    if os.environ.get("CI"):
        return importlib.import_module(module)
    return pytest.importorskip(module)
