"""``--limit NAME=VALUE`` on the commands that read observations, and library messages in
the command line's words (``--format``, ``--limit max_nodes=N``)."""

from __future__ import annotations

import inspect

import pytest
from cli_helpers import NETWORK_OK, ROOT, SETTINGS_TREE, one_line_error, run

from resolver import Observation

TREE = str(SETTINGS_TREE)
needs_observation_limits = pytest.mark.skipif(
    "limits" not in inspect.signature(Observation.__init__).parameters,
    reason="Observation(limits=...) is not in this checkout yet",
)


@pytest.mark.parametrize(
    "args",
    [
        ("resolve", "--ref", NETWORK_OK),
        ("explain", "--ref", NETWORK_OK, "--out", "/dev/null"),
        ("complete", "--ref", NETWORK_OK),
        ("catalog",),
        ("snapshot",),
    ],
)
@needs_observation_limits
def test_a_limit_refuses_and_names_the_option(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, _, err = run(capsys, *args, "--tree", TREE, "--limit", "max_nodes=5")
    line = one_line_error(err)
    assert code == 2 and "--limit max_nodes=N" in line
    assert "raise max_nodes" not in line and "Limits(" not in line
    code, _, err = run(capsys, *args, "--tree", TREE, "--limit", "max_tree_bytes=100")
    line = one_line_error(err)
    assert code == 2 and "--limit max_tree_bytes=N" in line and "in Python" not in line


@needs_observation_limits
def test_a_raised_limit_reads_the_tree(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "resolve", "--ref", NETWORK_OK, "--tree", TREE,
                       "--limit", "max_nodes=1000", "--limit", "max_depth=500")  # fmt: skip
    assert code == 0 and "resolved a11y:87" in out


@pytest.mark.parametrize("value", ["max_nodes=0", "bogus=3", "max_nodes=many", "max_nodes"])
def test_a_bad_limit_is_a_usage_error(capsys: pytest.CaptureFixture[str], value: str) -> None:
    code, _, err = run(capsys, "catalog", "--tree", TREE, "--limit", value)
    assert code == 2
    one_line_error(err)


def test_format_is_named_as_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    readme = str(ROOT / "README.md")
    for args in (("catalog", "--tree", readme), ("formats", readme)):
        code, _, err = run(capsys, *args)
        line = one_line_error(err)
        assert code == 2 and "pass --format one of" in line and "tree_format" not in line
