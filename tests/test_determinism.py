"""Same inputs, same answers: across processes, hash seeds and threads sharing one observation.

The digest covers answers, scores, confidences, the order of alternatives, and for refusals
the error code, the rule and the order of the candidates, on captured pages (accessibility
tree and DOM) and on the XML tree formats.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from resolver import Observation, resolve
from resolver.errors import ResolutionError
from resolver.replay import read_capture

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"

DIGEST_SCRIPT = r"""
import json
import sys
from pathlib import Path

from resolver import Observation, resolve, resolve_many
from resolver.errors import ResolutionError
from resolver.replay import read_capture

root = Path(sys.argv[1])
PROBES = [
    {"role": "button"}, {"role": "link"}, {"role": "textbox"}, {"role": "cell"},
    {"name": "Edit"}, {"role": "button", "name": "Edit"}, {"role": "button", "name": "Delete"},
    {"role": "link", "name": "Home"}, {"role": "push button"},
]


def sampled(table, n=6):
    step = max(1, len(table) // n)
    return [{"role": table.roles[r], "name": table.names[r]} for r in range(0, len(table), step)]


def outcome(result):
    if isinstance(result, ResolutionError):
        cands = [[c.executor_id, round(c.score, 6)] for c in result.evidence.candidates]
        return [result.code.value, result.evidence.rule, cands]
    alts = [[a.executor_id, round(a.score, 6)] for a in result.alternatives]
    return ["ok", result.executor_id, result.source, round(result.score, 6),
            round(result.margin, 6), round(result.confidence, 6), alts]


cases = []
for page in ("login", "table", "nav.v2"):
    obs = read_capture(root / "captured" / page).observation
    refs = sampled(obs.candidates("a11y")) + sampled(obs.candidates("dom")) + PROBES
    for sources in (("a11y", "dom", "vision", "coords"), ("dom",)):
        cases.append((page, sources, obs, refs))
for fmt in ("atspi", "uiautomator"):
    path = sorted((root / "formats" / fmt).iterdir())[0]
    obs = Observation(accessibility_tree=path.read_bytes())
    cases.append((fmt, ("a11y",), obs, sampled(obs.candidates("a11y")) + PROBES))

digest = []
for label, sources, obs, refs in cases:
    many = resolve_many(refs, obs, sources=sources)
    for ref, batch in zip(refs, many):
        try:
            single = outcome(resolve(ref, obs, sources=sources))
        except ResolutionError as exc:
            single = outcome(exc)
        digest.append([label, list(sources), ref, single, outcome(batch) == single])
print(json.dumps(digest, sort_keys=True))
"""


def _digest_env(seed: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = seed
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def test_same_answers_across_processes_and_hash_seeds() -> None:
    seeds = ["0", "1", "12345", "random"]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", DIGEST_SCRIPT, str(FIXTURES)],
            env=_digest_env(seed),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in seeds
    ]
    outputs: list[str] = []
    for seed, proc in zip(seeds, procs, strict=True):
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, f"PYTHONHASHSEED={seed}: {err[-2000:]}"
        outputs.append(out)
    digest: list[list[Any]] = json.loads(outputs[0])
    kinds = {entry[3][0] for entry in digest}
    assert {"ok", "AMBIGUOUS", "ELEMENT_NOT_FOUND"} <= kinds
    # Ties: refusals whose leading candidates share a score, so only a stable order keeps them.
    assert any(
        entry[3][0] != "ok" and len(entry[3][2]) > 1 and entry[3][2][0][1] == entry[3][2][1][1]
        for entry in digest
    )
    assert all(entry[4] for entry in digest), "resolve_many disagrees with resolve"
    for seed, out in zip(seeds[1:], outputs[1:], strict=True):
        assert out == outputs[0], f"PYTHONHASHSEED={seed} gives other answers than seed 0"


# -- processors --------------------------------------------------------------------------

WORKLOAD_SCRIPT = r"""
import json
from benchmarks.synth import workload
from resolver import Observation, resolve_many

w = workload(10_000)
obs = Observation(accessibility_tree=w.tree)
out = []
for res in resolve_many([t.ref for t in w.targets], obs):
    cands = getattr(getattr(res, "evidence", None), "candidates", ())
    alts = getattr(res, "alternatives", cands)
    out.append([getattr(res, "executor_id", None), getattr(res, "margin", None),
                [a.executor_id for a in alts]])
print(json.dumps(out))
"""

_NO_WIDE_SIMD = "AVX512_ICL AVX512_SKX X86_V4 X86_V3"
"""numpy's processor features switched off for the second run: its AVX-512 and AVX2 code
(names a numpy or a processor lacks are ignored)."""


def test_same_answers_whatever_simd_code_numpy_runs() -> None:
    # numpy picks its sort and selection code by processor at import, and that code may
    # order equal values differently: answers must not follow. (Where the processor has
    # neither AVX-512 nor AVX2, both runs take the same code and the test says nothing.)
    outputs = []
    for disabled in ("", _NO_WIDE_SIMD):
        env = _digest_env("0")
        env.pop("NPY_DISABLE_CPU_FEATURES", None)
        if disabled:
            env["NPY_DISABLE_CPU_FEATURES"] = disabled
        proc = subprocess.run(
            [sys.executable, "-c", WORKLOAD_SCRIPT], env=env, cwd=ROOT,
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr[-2000:]
        outputs.append(json.loads(proc.stdout))
    assert len(outputs[0]) == 20
    assert outputs[1] == outputs[0]


# -- threads -----------------------------------------------------------------------------

THREADS = 8


def _outcome(ref: dict[str, str], obs: Observation) -> tuple[Any, ...]:
    try:
        res = resolve(ref, obs)
    except ResolutionError as exc:
        cands = tuple((c.executor_id, c.score) for c in exc.evidence.candidates)
        return (exc.code.value, exc.evidence.rule, cands)
    alts = tuple((a.executor_id, a.score) for a in res.alternatives)
    return ("ok", res.executor_id, res.source, res.score, res.margin, alts)


def _thread_refs(page: str) -> list[dict[str, str]]:
    obs = read_capture(FIXTURES / "captured" / page).observation
    refs: list[dict[str, str]] = []
    for source in ("a11y", "dom"):
        table = obs.candidates(source)
        step = max(1, len(table) // 12)
        refs += [
            {"role": table.roles[r], "name": table.names[r]} for r in range(0, len(table), step)
        ]
    return [*refs, {"role": "button"}, {"role": "button", "name": "Edit"}, {"name": "Home"}]


@pytest.mark.parametrize("page", ["table", "nav.v2"])
def test_threads_sharing_one_observation_match_serial(page: str) -> None:
    refs = _thread_refs(page)
    serial_obs = read_capture(FIXTURES / "captured" / page).observation
    serial = [_outcome(ref, serial_obs) for ref in refs]

    # A fresh observation: its tables are built lazily, by whichever thread asks first.
    shared = read_capture(FIXTURES / "captured" / page).observation
    barrier = threading.Barrier(THREADS)

    def worker(offset: int) -> list[tuple[int, tuple[Any, ...]]]:
        barrier.wait(timeout=30)
        order = list(range(len(refs)))
        order = order[offset:] + order[:offset]
        return [(i, _outcome(refs[i], shared)) for i in order]

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(worker, range(THREADS)))
    for got in results:
        assert [outcome for _, outcome in sorted(got)] == serial
