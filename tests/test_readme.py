"""The README's example runs and says what the README says it does."""

import re
from pathlib import Path

import pytest

from resolver import AmbiguousMatchError

README = Path(__file__).resolve().parents[1] / "README.md"


def test_thirty_second_example() -> None:
    text = README.read_text()
    block = re.search(r"## 30-second example\s+```python\n(.*?)```", text, re.S)
    assert block is not None
    code = block.group(1)
    first, _, last = code.rpartition("\nresolve(SemanticElementRef(")
    namespace: dict[str, object] = {}
    exec(first, namespace)
    res = namespace["res"]
    assert res.executor_id == "a11y:ok2"  # type: ignore[attr-defined]
    assert res.alternatives[0].executor_id == "a11y:ok1"  # type: ignore[attr-defined]
    with pytest.raises(AmbiguousMatchError):
        exec("resolve(SemanticElementRef(" + last.split("\n")[0], namespace)
