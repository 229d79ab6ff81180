"""The rule a request's value breaks, read from the type of the field that holds it.

msgspec refuses a seat of 7 or a mode of ``"duo"`` while it decodes, as it refuses a wrong JSON
type: in its own words (``Expected `int` <= 4``, ``Invalid enum value 'duo'``) and with no rule.
Such a value has the right JSON type but names no seat (T-1) or no mode (G-1): input the referee
cannot judge, answered as the engine answers it when a caller reaches it directly, 422
``INVALID_SEAT`` or ``INVALID_MODE`` with the rule, at the field's path (docs/errors.md). A wrong
JSON type (``"emperor": "0"``) stays 400 ``INVALID_FIELD``.

The field is found by following msgspec's path (``$.snapshot.trick.top.seat``) through the body's
type (:func:`msgspec.inspect.type_info`); the value itself, which msgspec's message leaves out, by
following the same path through the body.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, get_args

import msgspec
from msgspec import inspect

from ..engine import Mode
from .problems import Problem, mode_problem, out_of_range, seat_problem

_SEGMENT = re.compile(r"\.([A-Za-z_]\w*)|\[(\d+)\]")
_INDEX = re.compile(r"\[\d+\]")
_NOT_LISTED = "Invalid enum value"
MODES: tuple[str, ...] = get_args(Mode)


def _is_seat(kind: inspect.Type) -> bool:
    return isinstance(kind, inspect.IntType) and kind.ge == 0 and kind.le == 4


def _is_mode(kind: inspect.Type) -> bool:
    return isinstance(kind, inspect.LiteralType) and set(kind.values) == set(MODES)


def _unwrapped(kind: inspect.Type) -> list[inspect.Type]:
    """``kind`` without its metadata, a union as its members (``None`` left out)."""
    if isinstance(kind, inspect.Metadata):
        return _unwrapped(kind.type)
    if isinstance(kind, inspect.UnionType):
        return [one for member in kind.types for one in _unwrapped(member)]
    return [] if isinstance(kind, inspect.NoneType) else [kind]


@cache  # bounded: one entry per field of a body type, its paths' indices all read as [0]
def _field_types(body_type: Any, path: str) -> tuple[inspect.Type, ...]:
    """The types the field at ``path`` may have in a ``body_type`` (every variant of a union
    that has it), or none when the path leads nowhere in it."""
    kinds = _unwrapped(inspect.type_info(body_type))
    for name, index in _SEGMENT.findall(path):
        following: list[inspect.Type] = []
        for kind in kinds:
            if name and isinstance(kind, inspect.StructType):
                following += [
                    one
                    for field in kind.fields
                    if field.encode_name == name
                    for one in _unwrapped(field.type)
                ]
            elif index and isinstance(kind, inspect.ListType):
                following += _unwrapped(kind.item_type)
        kinds = following
    return tuple(kinds)


def _value_at(body: bytes, path: str) -> object:
    value: Any = msgspec.json.decode(body)
    for name, index in _SEGMENT.findall(path):
        value = value[name] if name else value[int(index)]
    return value


def field_rule_problem(body_type: Any, body: bytes, path: str, message: str) -> Problem | None:
    """The 422 for a value msgspec refused at ``path`` whose field is a seat or a mode, or
    ``None`` (then msgspec's 400 ``INVALID_FIELD`` stands)."""
    kinds = _field_types(body_type, _INDEX.sub("[0]", path))
    if not kinds:
        return None
    try:
        value = _value_at(body, path)
    except (msgspec.MsgspecError, KeyError, IndexError, TypeError):
        return None
    if out_of_range(message) and all(_is_seat(kind) for kind in kinds):
        return seat_problem(value, path)
    if message.startswith(_NOT_LISTED) and all(_is_mode(kind) for kind in kinds):
        return mode_problem(value, MODES, path)
    return None
