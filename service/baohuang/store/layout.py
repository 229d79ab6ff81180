"""What a table is made of in the store, named once: the fields of its record (a Redis hash;
the attributes of the in-memory store's :class:`.memory_entry.TableEntry`), the fields of each
event of its log (a Redis Stream entry; :class:`~.base.LoggedEvent`), and the five keys a table
has in Redis.

The Lua scripts (:mod:`.redis_scripts`) read these names from :data:`LUA_NAMES`, the first lines
of every table script, so a script says ``F.instance`` where the hash says ``e``; the Python
side says :attr:`Field.INSTANCE`. The one-letter spellings exist only here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Field(StrEnum):
    """The table record's fields: a member's name (lower case) is the in-memory entry's
    attribute, its value the Redis hash's field."""

    VERSION = "v"
    """Grows by one per write; starts at 1 (``put`` over a table goes on from its version)."""
    SNAPSHOT = "s"
    """The table's snapshot: bytes the store never parses."""
    LAST_WRITE = "w"
    """The token of the table's last write (a compare-and-set may require it: ``written_as``)."""
    INSTANCE = "e"
    """The table instance: a random epoch made by each ``put``."""
    LAST_SEQ = "q"
    """The ``seq`` of the last event logged."""
    LAST_TOKEN = "k"
    """The token of the write that logged that event."""
    HOOKED = "h"
    """The last ``seq`` the table's webhook delivered."""
    BACKOFF = "b"
    """The webhook's retry schedule, ``"<instance> <failures> <retry at>"`` (once one failed)."""
    TOUCHES = "c"
    """A counter only the scripts that prove a remembered write is on this node increment, so
    that the ``WAIT`` after them has something of this connection's to count."""
    RECORDED = "r"
    """The last ``seq`` of the finished deals: the current deal's events follow it."""
    TRIMMED = "p"
    """The last ``seq`` trimmed from the log (finished deals' events, once delivered)."""
    TRIMMED_TOKEN = "u"
    """The token of the event that had that ``seq``."""


class LogField(StrEnum):
    """The fields of an event in the log (a stream entry ``<seq>-0``)."""

    VERSION = "v"
    """The version the event's write produced."""
    DATA = "d"
    """The event's bytes."""
    TOKEN = "t"
    """The token of the event's write: after a rollback the same seq is logged with another."""


KEY_SUFFIXES: Final = ("", ":log", ":idem", ":idemq", ":deals")
"""A table's five Redis keys, each the table's key plus this suffix: its record (the hash), its
log, its remembered answers (idempotency key → record), those keys in the order they were
kept, its finished deals' records (oldest first). Every table script gets them in this order."""

_KEY_NAMES: Final = ("hash_key", "log_key", "answers_key", "answer_order_key", "deals_key")


def _lua_table(name: str, fields: type[StrEnum]) -> str:
    pairs = ", ".join(f"{member.name.lower()} = '{member.value}'" for member in fields)
    return f"local {name} = {{{pairs}}}\n"


LUA_NAMES: Final = (
    _lua_table("F", Field)
    + _lua_table("L", LogField)
    + f"local {', '.join(_KEY_NAMES)} = "
    + ", ".join(f"KEYS[{n}]" for n in range(1, len(_KEY_NAMES) + 1))
    + "\n"
)
"""The first lines of every table script: ``F`` the record's fields, ``L`` the log's, and the
table's keys by name."""
