"""The A/B timing tool of ``benchmarks/ab_speed.py``: each checkout's calls run with that
checkout's modules installed, and the ratios are new over old per round."""

import sys
import types
from pathlib import Path

import pytest

from benchmarks import ab_speed


def _fake(tag: str, seen: list[str]) -> ab_speed.Timed:
    module = types.ModuleType("resolver.fake")
    module.tag = tag  # type: ignore[attr-defined]

    def call() -> object:
        seen.append(sys.modules["resolver.fake"].tag)
        return None

    return dict.fromkeys(ab_speed.CALLS, call), {"resolver.fake": module}


def test_each_checkout_runs_with_its_own_modules_in_alternating_order() -> None:
    seen: list[str] = []
    before = {k for k in sys.modules if k.split(".")[0] == "resolver"}
    saved = {k: sys.modules[k] for k in before}
    try:
        out = ab_speed.compare(_fake("old", seen), _fake("new", seen), rounds=3)
    finally:
        ab_speed._forget()
        sys.modules.update(saved)
    # Per round: every call of one checkout, then the other's; old first in even rounds.
    calls = len(ab_speed.CALLS)
    order = ["old", "new", "new", "old", "old", "new"]
    assert seen == [tag for tag in order for _ in range(calls)]
    want = {f"{k}_{c}" for k in ("old", "new", "ratio") for c in ab_speed.CALLS}
    assert set(out) == want
    assert all(value >= 0 for value in out.values())


def test_a_folder_that_is_no_checkout_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        ab_speed.main([str(tmp_path), str(tmp_path)])


def test_both_orders_runs_each_checkout_first_once_and_means_the_ratios(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json
    import subprocess

    runs: list[list[str]] = []

    def fake_run(command: list[str], **_: object) -> None:
        runs.append(command)
        first = command[3]
        out = Path(command[command.index("--json") + 1])
        # The "old" checkout's code takes 10 ms, the "new" one's 8 ms; loaded second, 10% more.
        ratio = (8 / 10) * 1.1 if first.endswith("old") else (10 / 8) * 1.1
        out.write_text(json.dumps({"ratio_cdp": ratio, "old_cdp": 1.0}), encoding="utf-8")

    monkeypatch.setattr(subprocess, "run", fake_run)
    figures = ab_speed.both_orders(tmp_path / "old", tmp_path / "new", ["--rounds", "3"])
    assert [c[3:5] for c in runs] == [
        [str(tmp_path / "old"), str(tmp_path / "new")],
        [str(tmp_path / "new"), str(tmp_path / "old")],
    ]
    assert figures["forward_cdp"] == pytest.approx(0.88)
    assert figures["backward_cdp"] == pytest.approx(0.8 / 1.1)
    assert figures["ratio_cdp"] == pytest.approx(0.8)  # the load order's 10% cancels


def test_the_step_size_reaches_both_runs_and_names_the_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    import subprocess

    runs: list[list[str]] = []

    def fake_run(command: list[str], **_: object) -> None:
        runs.append(command)
        out = Path(command[command.index("--json") + 1])
        out.write_text(json.dumps({"ratio_nested": 1.0}), encoding="utf-8")

    monkeypatch.setattr(subprocess, "run", fake_run)
    root = Path(__file__).resolve().parents[1]  # (a checkout, twice)
    ab_speed.main([str(root), str(root), "--step-nodes", "200000", "--both-orders"])
    assert all(c[c.index("--step-nodes") + 1] == "200000" for c in runs) and len(runs) == 2
    assert "nested       new / old" in capsys.readouterr().out
    sizes: list[int] = []
    calls: ab_speed.Timed = (dict.fromkeys(ab_speed.CALLS, lambda: 1), {})
    monkeypatch.setattr(ab_speed, "load", lambda _c, _h, n: sizes.append(n) or calls)
    monkeypatch.setattr(ab_speed, "compare", lambda *_a: {"ratio_nested": 1.0, "old_nested": 1.0,
                                                          "new_nested": 1.0})  # fmt: skip
    monkeypatch.setattr(ab_speed, "_install", lambda _m: None)
    ab_speed.main([str(root), str(root), "--step-nodes", "50000"])
    assert sizes == [50_000, 50_000] and "step, nested 50k" in capsys.readouterr().out
