"""The examples in the package's docstrings run and say what they show."""

import doctest
import importlib

import pytest

MODULES = [
    "resolver",
    "resolver.chain",
    "resolver.geometry",
    "resolver.models",
    "resolver.observation",
    "resolver.roles",
    "resolver.text",
    "resolver.web",
    "resolver.capture.rows",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    assert result.attempted > 0
