"""The Lua scripts of the Redis table store (see :mod:`.redis` for the layout they keep).

Redis runs each script atomically; every table script touches only the table's own five keys,
which share one hash slot. Each script's arguments are named once, by a ``NamedTuple`` here: the
store builds ``ARGV`` from it and the script's first line (made by :func:`.redis_lua.unpacked`) unpacks
``ARGV`` into locals of the same names, so Python and Lua can never disagree on the order. The
table's keys and the fields of its hash and its log are named once too (:mod:`.layout`: the
scripts say ``F.instance``, ``L.token``, ``log_key``), and each script's reply is decoded in one
place (:mod:`.redis_replies`). The in-memory twin of every script is
:class:`.memory.MemoryTableStore`.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .redis_lua import KEEP, TOKEN_AT, TRIM, arguments, unpacked


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
    unpacked(PutArgs)
    + """
local last = redis.call('HMGET', hash_key, F.version, F.last_write)
if last[1] and last[2] == token then
  redis.call('HINCRBY', hash_key, F.touches, 1)  -- a retry's WAIT then vouches for the first run too
  return tonumber(last[1])
end
local v = redis.call('HINCRBY', hash_key, F.version, 1)
redis.call('DEL', log_key, answers_key, answer_order_key, deals_key)
redis.call('HDEL', hash_key, F.trimmed, F.trimmed_token, F.recorded)
local q = 0
for i = rest, #ARGV do
  q = q + 1
  redis.call('XADD', log_key, q .. '-0', L.version, v, L.data, ARGV[i], L.token, token)
end
local k = ''
if q > 0 then
  k = token
end
redis.call(
  'HSET', hash_key, F.snapshot, snapshot, F.last_write, token, F.instance, instance,
  F.last_seq, q, F.hooked, 0, F.last_token, k
)
redis.call('EXPIRE', hash_key, ttl)
if q > 0 then
  redis.call('EXPIRE', log_key, ttl)
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
    arguments(PresentArgs)
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
    unpacked(AdvanceArgs)
    + TRIM
    + """
if redis.call('HGET', hash_key, F.instance) ~= instance then
  return 0
end
local h = tonumber(redis.call('HGET', hash_key, F.hooked) or '0')
if tonumber(delivered) > h then
  h = tonumber(delivered)
  redis.call('HSET', hash_key, F.hooked, h)
end
trim(math.min(h, tonumber(redis.call('HGET', hash_key, F.recorded) or '0')))
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


# The webhook's retry schedule, in the table's own hash (F.backoff, "<instance> <failures> <at>"),
# so that a replica taking over follows it and Cluster keeps it in the table's slot.
BACKOFF_LUA: Final = (
    unpacked(BackoffArgs)
    + """
if redis.call('HGET', hash_key, F.instance) ~= instance then
  return 0
end
redis.call('HSET', hash_key, F.backoff, instance .. ' ' .. failures .. ' ' .. retry_at)
return 1
"""
)

# Returns {1, version, last seq}: written;  {-1, current version}: conflict;  {0}: no table;
# {2, record}: the idempotency key already has a record, nothing written. A write that starts the
# next deal ('deal_record') keeps the finished deal's record, marks every event logged before it
# as the finished deals' (F.recorded) and drops them from the log — those the webhook has delivered.
CAS_LUA: Final = (
    unpacked(CasArgs)
    + KEEP
    + TRIM
    + """
local cur = redis.call('HMGET', hash_key, F.version, F.last_write, F.instance, F.last_seq)
if not cur[1] then
  return {0}
end
if idem_key ~= '' then
  local kept = redis.call('HGET', answers_key, idem_key)
  if kept then
    return {2, kept}
  end
end
local v = tonumber(cur[1])
local want = tonumber(expected)
if v ~= want then
  if v == want + 1 and cur[2] == token then
    redis.call('HINCRBY', hash_key, F.touches, 1)  -- a retry's WAIT then vouches for the first run too
    return {1, v, tonumber(cur[4] or 0)}
  end
  return {-1, v}
end
if (last_write ~= '' and cur[2] ~= last_write) or (instance ~= '' and cur[3] ~= instance) then
  return {-1, v}
end
v = redis.call('HINCRBY', hash_key, F.version, 1)
local q = tonumber(cur[4] or 0)
for i = rest, #ARGV do
  q = q + 1
  redis.call('XADD', log_key, q .. '-0', L.version, v, L.data, ARGV[i], L.token, token)
end
redis.call('HSET', hash_key, F.snapshot, snapshot, F.last_write, token, F.last_seq, q)
if q > tonumber(cur[4] or 0) then
  redis.call('HSET', hash_key, F.last_token, token)
end
if idem_key ~= '' then
  keep(idem_key, record, tonumber(most_kept))
end
if deal_record ~= '' then
  local finished = tonumber(cur[4] or 0)
  redis.call('RPUSH', deals_key, deal_record)
  redis.call('LTRIM', deals_key, -tonumber(deals_kept), -1)
  redis.call('HSET', hash_key, F.recorded, finished)
  if webhook == '1' then
    finished = math.min(finished, tonumber(redis.call('HGET', hash_key, F.hooked) or '0'))
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
    unpacked(GetArgs)
    + """
local cur = redis.call(
  'HMGET', hash_key, F.version, F.snapshot, F.instance, F.last_seq, F.last_token
)
if not cur[1] or not cur[2] then
  return {}
end
local kept = false
if idem_key ~= '' then
  kept = redis.call('HGET', answers_key, idem_key)
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
    unpacked(RememberArgs)
    + KEEP
    + """
if redis.call('HGET', hash_key, F.instance) ~= instance then
  return false
end
keep(idem_key, record, tonumber(most_kept))
local ttl = redis.call('TTL', hash_key)
redis.call('EXPIRE', answers_key, ttl)
redis.call('EXPIRE', answer_order_key, ttl)
return redis.call('HGET', answers_key, idem_key)
"""
)


class ReplayArgs(NamedTuple):
    """``replay``'s ARGV."""

    idem_key: str
    touch: int
    """1: touch the table's hash (writes wait for replicas: ``WAIT`` follows the script)."""


# The answer kept under idem_key, read where the proof is: the record is written in the same
# atomic write as the move it answers, so a node that holds the record holds the move. With
# touch, a write on the table's own hash that changes nothing anyone reads, so that the WAIT sent
# after this script on the same connection proves the replicas hold everything before it, the
# record and its move included (replication is one ordered stream). Returns the record, or false
# when this node holds none (nothing written): whatever node a re-sent script reaches, it proves
# the write there or finds nothing.
REPLAY_LUA: Final = (
    unpacked(ReplayArgs)
    + """
if redis.call('EXISTS', hash_key) == 0 then
  return false
end
local kept = redis.call('HGET', answers_key, idem_key)
if not kept then
  return false
end
if touch == '1' then
  redis.call('HINCRBY', hash_key, F.touches, 1)
end
return kept
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
    unpacked(EventsArgs)
    + TOKEN_AT
    + """
local cur = redis.call(
  'HMGET', hash_key, F.instance, F.version, F.last_seq, F.last_token, F.snapshot, F.trimmed,
  F.trimmed_token, F.recorded
)
if not cur[2] then
  return {}
end
local from = tonumber(after)
local trimmed = tonumber(cur[6] or '0')
local entries = redis.call('XRANGE', log_key, (from + 1) .. '-0', '+', 'COUNT', limit)
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
  deals = redis.call('LRANGE', deals_key, 0, -1)
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
    unpacked(DeleteArgs)
    + """
local removed = redis.call('DEL', hash_key, log_key, answers_key, answer_order_key, deals_key)
if removed > 0 then
  redis.call('PUBLISH', channel, table_id)
end
return removed
"""
)
