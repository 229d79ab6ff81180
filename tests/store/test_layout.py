"""The table's record, log and keys are named once (store/layout.py), and both stores keep to
those names: the Lua scripts spell no field but through them, and the in-memory store's entry
has an attribute for every field of the record on Redis."""

from __future__ import annotations

import re

import pytest

from baohuang.store import layout, redis_scripts
from baohuang.store.memory_entry import TableEntry

SCRIPTS = {
    name: value
    for name, value in vars(redis_scripts).items()
    if name.endswith("_LUA") and isinstance(value, str)
}
TABLE_SCRIPTS = {name: script for name, script in SCRIPTS.items() if layout.LUA_NAMES in script}
NOT_KEPT_IN_MEMORY = {layout.Field.TOUCHES}
"""Only ``WAIT`` needs it, and one process waits for no replica."""


def test_every_table_script_has_the_names_and_only_the_index_scripts_do_without() -> None:
    assert set(SCRIPTS) - set(TABLE_SCRIPTS) == {"DUE_LUA", "RELEASE_LUA", "PRESENT_LUA"}


@pytest.mark.parametrize("name", sorted(TABLE_SCRIPTS))
def test_a_script_spells_no_field_of_its_own(name: str) -> None:
    body = TABLE_SCRIPTS[name].replace(layout.LUA_NAMES, "")
    letters = {field.value for field in (*layout.Field, *layout.LogField)}
    spelled = set(re.findall(r"'([a-z])'", body)) & letters
    assert not spelled, f"{name} spells {spelled} instead of F.… or L.…"
    assert "KEYS[" not in body.replace("KEYS[i]", ""), f"{name} names a key by number"


def test_the_lua_names_are_the_fields() -> None:
    for field in layout.Field:
        assert f"{field.name.lower()} = '{field.value}'" in layout.LUA_NAMES
    assert len({field.value for field in layout.Field}) == len(layout.Field)


@pytest.mark.parametrize("field", sorted(set(layout.Field) - NOT_KEPT_IN_MEMORY))
def test_the_memory_entry_keeps_every_field_of_the_record(field: layout.Field) -> None:
    name = field.name.lower()
    assert name in TableEntry.__slots__ or isinstance(getattr(TableEntry, name, None), property), (
        name
    )
