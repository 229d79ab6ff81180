"""The Lua scripts of the Redis table store (see :mod:`.redis` for the layout they keep).

Redis runs each script atomically; every table script touches only the table's own five keys,
which share one hash slot. Each script's arguments are named once, by a ``NamedTuple`` here: the
store builds ``ARGV`` from it and the script's first line (made by :func:`_unpacked`) unpacks
``ARGV`` into locals of the same names, so Python and Lua can never disagree on the order.
The in-memory twin of every script is :class:`.memory.MemoryTableStore`.
"""

from __future__ import annotations

from typing import Final, NamedTuple

# Every table script: KEYS[1] the table hash, KEYS[2] its event log, KEYS[3] its remembered
# answers (idempotency key → record), KEYS[4] those keys in the order they were kept, KEYS[5] its
# finished deals' records, oldest first.


def _unpacked(args: type[tuple[object, ...]]) -> str:
    """``local a, b, c = ARGV[1], ARGV[2], ARGV[3]`` for a NamedTuple's fields, and ``rest``:
    the index of the first ARGV after them (a script's list of events)."""
    names: tuple[str, ...] = args._fields  # type: ignore[attr-defined]
    values = ", ".join(f"ARGV[{i}]" for i in range(1, len(names) + 1))
    return f"local {', '.join(names)} = {values}\nlocal rest = {len(names) + 1}\n"


# Finished deals' events leave the log up to seq ``upto`` (never backwards): the hash keeps the
# last seq gone ('p') and the token of the event there ('u'), so that a reader standing exactly
# at it is told its position still holds (the anchor), and one before it that it is gone.
# The token of the event at ``seq`` ('' for one logged without a token), or false when the log
# holds no such event.
_TOKEN_AT: Final = """
local function token_at(seq)
  local at = redis.call('XRANGE', KEYS[2], seq .. '-0', seq .. '-0')
  if not at[1] then
    return false
  end
  local fields = at[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == 't' then
      return fields[i + 1]
    end
  end
  return ''
end
"""

_TRIM: Final = (
    _TOKEN_AT
    + """
local function trim(upto)
  local p = tonumber(redis.call('HGET', KEYS[1], 'p') or '0')
  if upto <= p then
    return
  end
  local token = token_at(upto) or ''
  redis.call('XTRIM', KEYS[2], 'MINID', (upto + 1) .. '-0')
  redis.call('HSET', KEYS[1], 'p', upto, 'u', token)
end
"""
)

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
  redis.call('HINCRBY', KEYS[1], 'c', 1)  -- a retry's WAIT then vouches for the first run too
  return tonumber(last[1])
end
local v = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
redis.call('HDEL', KEYS[1], 'p', 'u', 'r')
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


class PresentArgs(NamedTuple):
    """``present``'s ARGV (KEYS[1] the group's sorted set: member → when it expires)."""

    now: str
    expires: str
    ttl: int
    member: str  # '' only counts


# Members whose time has passed leave; the one given (if any) holds until ``expires``; the count.
PRESENT_LUA: Final = (
    _unpacked(PresentArgs)
    + """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. now)
if member ~= '' then
  redis.call('ZADD', KEYS[1], expires, member)
  redis.call('EXPIRE', KEYS[1], ttl)
end
return redis.call('ZCARD', KEYS[1])
"""
)


class AdvanceArgs(NamedTuple):
    """``advance_hook``'s ARGV."""

    instance: str
    delivered: int
    """The seq the webhook delivered up to."""


# Moves the webhook cursor forward only; the finished deals' events it has delivered now leave
# the log (a table with a webhook keeps them until then).
ADVANCE_LUA: Final = (
    _unpacked(AdvanceArgs)
    + _TRIM
    + """
if redis.call('HGET', KEYS[1], 'e') ~= instance then
  return 0
end
local h = tonumber(redis.call('HGET', KEYS[1], 'h') or '0')
if tonumber(delivered) > h then
  h = tonumber(delivered)
  redis.call('HSET', KEYS[1], 'h', h)
end
trim(math.min(h, tonumber(redis.call('HGET', KEYS[1], 'r') or '0')))
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
    deal_record: bytes
    """The write starts the next deal: the finished deal's record ('' for none, the write
    starts no deal). Every event logged before the write then leaves the log."""
    deals_kept: int
    """Finished deals' records a table keeps at most."""
    webhook: int
    """1: the table has a webhook, and the log keeps what it has not delivered yet."""


class BackoffArgs(NamedTuple):
    """``set_hook_backoff``'s ARGV."""

    instance: str
    failures: int
    retry_at: str


# The webhook's retry schedule, in the table's own hash (field 'b', "<instance> <failures> <at>"),
# so that a replica taking over follows it and Cluster keeps it in the table's slot.
BACKOFF_LUA: Final = (
    _unpacked(BackoffArgs)
    + """
if redis.call('HGET', KEYS[1], 'e') ~= instance then
  return 0
end
redis.call('HSET', KEYS[1], 'b', instance .. ' ' .. failures .. ' ' .. retry_at)
return 1
"""
)

# Returns {1, version, last seq}: written;  {-1, current version}: conflict;  {0}: no table;
# {2, record}: the idempotency key already has a record, nothing written. A write that starts the
# next deal ('deal_record') keeps the finished deal's record, marks every event logged before it
# as the finished deals' ('r') and drops them from the log — those the webhook has delivered.
CAS_LUA: Final = (
    _unpacked(CasArgs)
    + _KEEP
    + _TRIM
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
    redis.call('HINCRBY', KEYS[1], 'c', 1)  -- a retry's WAIT then vouches for the first run too
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
if deal_record ~= '' then
  local finished = tonumber(cur[4] or 0)
  redis.call('RPUSH', KEYS[5], deal_record)
  redis.call('LTRIM', KEYS[5], -tonumber(deals_kept), -1)
  redis.call('HSET', KEYS[1], 'r', finished)
  if webhook == '1' then
    finished = math.min(finished, tonumber(redis.call('HGET', KEYS[1], 'h') or '0'))
  end
  trim(finished)
end
for i = 1, 5 do
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
    with_snapshot: int
    """1: the table's snapshot too (read in the same script, so it is the one at ``version``)."""
    with_deals: int
    """1: the finished deals' records too."""


# Returns {instance, version, last seq, the token of the last event's write, entries, the token
# of the event at ``after`` ('' without one, false when the log holds no such seq), the snapshot
# (false unless asked for), the last seq trimmed from the log, the last seq of the finished
# deals, their records (false unless asked for)}, or {} when there is no table.
EVENTS_LUA: Final = (
    _unpacked(EventsArgs)
    + _TOKEN_AT
    + """
local cur = redis.call('HMGET', KEYS[1], 'e', 'v', 'q', 'k', 's', 'p', 'u', 'r')
if not cur[2] then
  return {}
end
local from = tonumber(after)
local trimmed = tonumber(cur[6] or '0')
local entries = redis.call('XRANGE', KEYS[2], (from + 1) .. '-0', '+', 'COUNT', limit)
local anchor = false
if from > 0 and from == trimmed then
  anchor = cur[7] or ''
elseif from > trimmed then
  anchor = token_at(from)
end
local snapshot = false
if tonumber(with_snapshot) == 1 then
  snapshot = cur[5]
end
local deals = false
if tonumber(with_deals) == 1 then
  deals = redis.call('LRANGE', KEYS[5], 0, -1)
end
return {
  cur[1] or '', cur[2], cur[3] or '0', cur[4] or '', entries, anchor, snapshot, trimmed,
  cur[8] or '0', deals
}
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
local removed = redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
if removed > 0 then
  redis.call('PUBLISH', channel, table_id)
end
return removed
"""
)
