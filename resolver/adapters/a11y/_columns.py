"""Row columns collected in plain lists, handed to :meth:`TableBuilder.extend` in one call.

Large trees are the common case (10k nodes and more); appending to lists and building the
table once is several times cheaper than one :meth:`TableBuilder.add` call per row.
"""

from __future__ import annotations

from typing import Any

from ...errors import InvalidObservationError
from ...table import CandidateTable, TableBuilder
from .._common import as_bool

__all__ = ["Columns", "tri"]


def tri(value: Any) -> int:
    """1 / 0 / -1 (unknown) from a boolean or its string spellings."""
    if value is True or value is False:
        return int(value)
    flag = as_bool(value)
    return -1 if flag is None else int(flag)


class Columns:
    """Rows of one table under construction, as lists (see :meth:`TableBuilder.extend`)."""

    __slots__ = (
        "boxes", "ids", "max_rows", "names", "parents", "platform_ids", "raw_roles", "roles",
        "states", "values",
    )  # fmt: skip

    def __init__(self, id_columns: tuple[str, ...], max_rows: int) -> None:
        self.ids: list[str] = []
        self.raw_roles: list[str] = []
        self.names: list[str] = []
        self.parents: list[int] = []
        self.boxes: list[Any] = []
        self.values: list[str] = []
        self.states: list[tuple[int, int, int]] = []
        self.platform_ids: dict[str, list[str | None]] = {c: [] for c in id_columns}
        self.roles: dict[int, str] = {}
        """Rows whose canonical role is not the raw role's mapping (set by :meth:`row`)."""
        self.max_rows = max_rows

    def __len__(self) -> int:
        return len(self.ids)

    def row(
        self,
        id: str,
        raw_role: str,
        name: str,
        parent: int,
        box: Any,
        value: str,
        states: tuple[int, int, int],
        role: str | None = None,
    ) -> int:
        """Append a row (its platform IDs go straight into :attr:`platform_ids`); ``role``
        overrides the role tables' reading of ``raw_role`` for this row."""
        index = len(self.ids)
        if index >= self.max_rows:
            raise InvalidObservationError(
                f"the tree has more than {self.max_rows} nodes; raise max_nodes to read it",
                details={"max_nodes": self.max_rows},
            )
        self.ids.append(id)
        self.raw_roles.append(raw_role)
        self.names.append(name)
        self.parents.append(parent)
        self.boxes.append(box)
        self.values.append(value)
        self.states.append(states)
        if role is not None:
            self.roles[index] = role
        return index

    def build(
        self,
        format: str,
        platform: str,
        *,
        coord_space: str,
        screen_size: tuple[float, float] | None,
    ) -> CandidateTable:
        """Freeze into a table."""
        builder = TableBuilder(
            "a11y", format, platform=platform, id_columns=tuple(self.platform_ids),
            max_rows=self.max_rows,
        )  # fmt: skip
        builder.extend(
            ids=self.ids,
            raw_roles=self.raw_roles,
            names=self.names,
            parents=self.parents,
            boxes=self.boxes,
            values=self.values,
            states=self.states,
            platform_ids=self.platform_ids,
            roles=self.roles,
        )
        return builder.build(coord_space=coord_space, screen_size=screen_size)
