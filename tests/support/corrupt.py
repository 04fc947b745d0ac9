"""Corrupting a stored state at one random place, for the from_json properties
(used by the Digging and Digger from_json properties)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.lists(st.integers(min_value=-1, max_value=25), max_size=5),
)


def corrupt(data: st.DataObject, doc: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """A deep copy of ``doc`` with one value changed, removed or doubled; and where."""
    doc = copy.deepcopy(doc)
    node: Any = doc
    path: list[Any] = []
    while True:
        keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
        key = data.draw(st.sampled_from(keys))
        path.append(key)
        child = node[key]
        if isinstance(child, (dict, list)) and child and data.draw(st.booleans()):
            node = child
            continue
        break
    how = data.draw(st.sampled_from(["nudge", "replace", "delete", "double"]))
    old = node[key]
    if how == "nudge":
        if isinstance(old, bool):
            new: Any = not old
        elif isinstance(old, int):
            new = old + data.draw(st.sampled_from([-2, -1, 1, 2]))
        elif isinstance(old, float):
            new = old + data.draw(st.sampled_from([-40.0, -0.5, 0.25, 40.0]))
        elif isinstance(old, str) and old:
            i = data.draw(st.integers(0, len(old) - 1))
            new = old[:i] + data.draw(st.sampled_from("BYRGWKX1")) + old[i + 1 :]
        else:
            new = data.draw(ODD_VALUES)
        node[key] = new
    elif how == "replace":
        node[key] = data.draw(ODD_VALUES)
    elif how == "delete":
        del node[key]
    else:
        if isinstance(node, list):
            node.insert(key, copy.deepcopy(old))
        else:
            node[key] = [copy.deepcopy(old), copy.deepcopy(old)]
    return [*path, how], doc


def load_or_refuse(load: Callable[[dict[str, Any]], Any], doc: dict[str, Any], where: list[Any],
                   game: str) -> Any | None:  # fmt: skip
    """``load(doc)``, or None if it refuses with the ValueError every refusal of ``game`` starts with."""
    try:
        state = load(doc)
    except ValueError as err:
        assert str(err).startswith((f"not a valid {game} state: ", f"not a {game} state")), (where, err)
        event("refused")
        return None
    event("accepted")
    return state
