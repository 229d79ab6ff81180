"""The Lua scripts of the Redis table store (see :mod:`.redis` for the layout they keep).

Redis runs each script atomically; every table script touches only the table's own four keys,
which share one hash slot. Each script's arguments are named once, by a ``NamedTuple`` here: the
store builds ``ARGV`` from it and the script's first line (made by :func:`_unpacked`) unpacks
``ARGV`` into locals of the same names, so Python and Lua can never disagree on the order.
The in-memory twin of every script is :class:`.memory.MemoryTableStore`.
"""

from __future__ import annotations

from typing import Final, NamedTuple

# Every table script: KEYS[1] the table hash, KEYS[2] its event log, KEYS[3] its remembered
# answers (idempotency key → record), KEYS[4] those keys in the order they were kept.


def _unpacked(args: type[tuple[object, ...]]) -> str:
    """``local a, b, c = ARGV[1], ARGV[2], ARGV[3]`` for a NamedTuple's fields, and ``rest``:
    the index of the first ARGV after them (a script's list of events)."""
    names: tuple[str, ...] = args._fields  # type: ignore[attr-defined]
    values = ", ".join(f"ARGV[{i}]" for i in range(1, len(names) + 1))
    return f"local {', '.join(names)} = {values}\nlocal rest = {len(names) + 1}\n"


# A remembered answer is kept under its key once; beyond ``most`` keys per table the oldest goes.
_KEEP: Final = """
local function keep(key, record, most)
  if redis.call('HSETNX', KEYS[3], key, record) == 1 then
    redis.call('RPUSH', KEYS[4], key)
    while redis.call('LLEN', KEYS[4]) > most do
      redis.call('HDEL', KEYS[3], redis.call('LPOP', KEYS[4]))
    end
  end
end
"""


class PutArgs(NamedTuple):
    """``put``'s ARGV; ARGV after these are the new log's first events."""

    snapshot: bytes
    ttl: int
    token: str
    instance: str
    channel: str
    table_id: str


# Returns the new version (1 means the table was created).
PUT_LUA: Final = (
    _unpacked(PutArgs)
    + """
local last = redis.call('HMGET', KEYS[1], 'v', 'w')
if last[1] and last[2] == token then
  return tonumber(last[1])
end
local v = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
local q = 0
for i = rest, #ARGV do
  q = q + 1
  redis.call('XADD', KEYS[2], q .. '-0', 'v', v, 'd', ARGV[i], 't', token)
end
local k = ''
if q > 0 then
  k = token
end
redis.call('HSET', KEYS[1], 's', snapshot, 'w', token, 'e', instance, 'q', q, 'h', 0, 'k', k)
redis.call('EXPIRE', KEYS[1], ttl)
if q > 0 then
  redis.call('EXPIRE', KEYS[2], ttl)
end
redis.call('PUBLISH', channel, table_id)
return v
"""
)

# KEYS[1] the deadlines index. ARGV[1] now, ARGV[2] how many at most, ARGV[3] the lease: tables
# due by now, claimed for the lease (their score moves to now + lease, so another replica takes
# them over if this one does not finish).
DUE_LUA: Final = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(due) do
  redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[3]), id)
end
return due
"""

# KEYS[1] an index. ARGV[1] a table id, ARGV[2] the score it was claimed with: removed only if
# nobody moved it since (a write that needs the table handled again moves it earlier).
RELEASE_LUA: Final = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""


class AdvanceArgs(NamedTuple):
    """``advance_hook``'s ARGV."""

    instance: str
    delivered: int
    """The seq the webhook delivered up to."""


# Moves the webhook cursor forward only.
ADVANCE_LUA: Final = (
    _unpacked(AdvanceArgs)
    + """
if redis.call('HGET', KEYS[1], 'e') ~= instance then
  return 0
end
local h = tonumber(redis.call('HGET', KEYS[1], 'h') or '0')
if tonumber(delivered) > h then
  redis.call('HSET', KEYS[1], 'h', delivered)
end
return 1
"""
)


class CasArgs(NamedTuple):
    """``compare_and_set``'s ARGV; ARGV after these are the events to append."""

    expected: int
    snapshot: bytes
    ttl: int
    token: str
    last_write: str
    """The token the table's last write must have ('' for any)."""
    instance: str
    """The instance the table must be ('' for any)."""
    channel: str
    table_id: str
    idem_key: str
    """An idempotency key ('' for none)."""
    record: bytes
    """The answer to keep under it."""
    most_kept: int
    """Remembered answers a table keeps at most."""


# Returns {1, version, last seq}: written;  {-1, current version}: conflict;  {0}: no table;
# {2, record}: the idempotency key already has a record, nothing written.
CAS_LUA: Final = (
    _unpacked(CasArgs)
    + _KEEP
    + """
local cur = redis.call('HMGET', KEYS[1], 'v', 'w', 'e', 'q')
if not cur[1] then
  return {0}
end
if idem_key ~= '' then
  local kept = redis.call('HGET', KEYS[3], idem_key)
  if kept then
    return {2, kept}
  end
end
local v = tonumber(cur[1])
local want = tonumber(expected)
if v ~= want then
  if v == want + 1 and cur[2] == token then
    return {1, v, tonumber(cur[4] or 0)}
  end
  return {-1, v}
end
if (last_write ~= '' and cur[2] ~= last_write) or (instance ~= '' and cur[3] ~= instance) then
  return {-1, v}
end
v = redis.call('HINCRBY', KEYS[1], 'v', 1)
local q = tonumber(cur[4] or 0)
for i = rest, #ARGV do
  q = q + 1
  redis.call('XADD', KEYS[2], q .. '-0', 'v', v, 'd', ARGV[i], 't', token)
end
redis.call('HSET', KEYS[1], 's', snapshot, 'w', token, 'q', q)
if q > tonumber(cur[4] or 0) then
  redis.call('HSET', KEYS[1], 'k', token)
end
if idem_key ~= '' then
  keep(idem_key, record, tonumber(most_kept))
end
for i = 1, 4 do
  redis.call('EXPIRE', KEYS[i], ttl)
end
redis.call('PUBLISH', channel, table_id)
return {1, v, q}
"""
)


class GetArgs(NamedTuple):
    """``get``'s ARGV."""

    idem_key: str
    """An idempotency key whose record to read too ('' for none)."""


# Returns {version, snapshot, instance, last seq, the token of the last event's write, record or
# false}, or {} when there is no table.
GET_LUA: Final = (
    _unpacked(GetArgs)
    + """
local cur = redis.call('HMGET', KEYS[1], 'v', 's', 'e', 'q', 'k')
if not cur[1] or not cur[2] then
  return {}
end
local kept = false
if idem_key ~= '' then
  kept = redis.call('HGET', KEYS[3], idem_key)
end
return {cur[1], cur[2], cur[3] or '', cur[4] or '0', cur[5] or '', kept}
"""
)


class RememberArgs(NamedTuple):
    """``remember``'s ARGV."""

    instance: str
    idem_key: str
    record: bytes
    most_kept: int


# Returns the record kept under the key (the one given, or an earlier one), or false when the
# table is not that instance.
REMEMBER_LUA: Final = (
    _unpacked(RememberArgs)
    + _KEEP
    + """
if redis.call('HGET', KEYS[1], 'e') ~= instance then
  return false
end
keep(idem_key, record, tonumber(most_kept))
local ttl = redis.call('TTL', KEYS[1])
redis.call('EXPIRE', KEYS[3], ttl)
redis.call('EXPIRE', KEYS[4], ttl)
return redis.call('HGET', KEYS[3], idem_key)
"""
)


class TouchArgs(NamedTuple):
    """``confirm``'s ARGV."""

    instance: str


# A write on the table's own hash that changes nothing anyone reads: the WAIT behind it proves
# that the replicas hold everything this primary wrote before it — the remembered answer a
# replay gives included (replication is one ordered stream). Returns 1, or 0 when the table is
# not that instance (nothing written).
TOUCH_LUA: Final = (
    _unpacked(TouchArgs)
    + """
if redis.call('HGET', KEYS[1], 'e') ~= instance then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'c', 1)
return 1
"""
)


class EventsArgs(NamedTuple):
    """``read_events``'s ARGV."""

    after: int
    limit: int


# Returns {instance, version, last seq, the token of the last event's write, entries, the token
# of the event at ``after`` ('' without one, false when the log holds no such seq)}, or {} when
# there is no table.
EVENTS_LUA: Final = (
    _unpacked(EventsArgs)
    + """
local cur = redis.call('HMGET', KEYS[1], 'e', 'v', 'q', 'k')
if not cur[2] then
  return {}
end
local entries = redis.call('XRANGE', KEYS[2], (tonumber(after) + 1) .. '-0', '+', 'COUNT', limit)
local anchor = false
if tonumber(after) > 0 then
  local at = redis.call('XRANGE', KEYS[2], after .. '-0', after .. '-0')
  if at[1] then
    anchor = ''
    local fields = at[1][2]
    for i = 1, #fields, 2 do
      if fields[i] == 't' then
        anchor = fields[i + 1]
      end
    end
  end
end
return {cur[1] or '', cur[2], cur[3] or '0', cur[4] or '', entries, anchor}
"""
)


class DeleteArgs(NamedTuple):
    """``delete``'s ARGV."""

    channel: str
    table_id: str


# Returns how many keys were removed.
DELETE_LUA: Final = (
    _unpacked(DeleteArgs)
    + """
local removed = redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
if removed > 0 then
  redis.call('PUBLISH', channel, table_id)
end
return removed
"""
)
