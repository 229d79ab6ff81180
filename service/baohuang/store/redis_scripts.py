"""The Lua scripts of the Redis table store (see :mod:`.redis` for the layout they keep).

Redis runs each script atomically; every table script touches only the table's own three keys,
which share one hash slot.
"""

from __future__ import annotations

from typing import Final

# Every script: KEYS[1] the table hash, KEYS[2] its event log, KEYS[3] its remembered answers.

# ARGV[1] snapshot, ARGV[2] TTL seconds, ARGV[3] write token, ARGV[4] the new instance,
# ARGV[5] the changes channel, ARGV[6] the table id, ARGV[7…] the new log's first events.
# Returns the new version (1 means the table was created).
PUT_LUA: Final = """
local last = redis.call('HMGET', KEYS[1], 'v', 'w')
if last[1] and last[2] == ARGV[3] then
  return tonumber(last[1])
end
local v = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('DEL', KEYS[2], KEYS[3])
local q = 0
for i = 7, #ARGV do
  q = q + 1
  redis.call('XADD', KEYS[2], q .. '-0', 'v', v, 'd', ARGV[i])
end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'w', ARGV[3], 'e', ARGV[4], 'q', q, 'h', 0)
redis.call('EXPIRE', KEYS[1], ARGV[2])
if q > 0 then
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
redis.call('PUBLISH', ARGV[5], ARGV[6])
return v
"""

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

# ARGV[1] the instance, ARGV[2] the seq delivered up to. Moves the webhook cursor forward only.
ADVANCE_LUA: Final = """
if redis.call('HGET', KEYS[1], 'e') ~= ARGV[1] then
  return 0
end
local h = tonumber(redis.call('HGET', KEYS[1], 'h') or '0')
if tonumber(ARGV[2]) > h then
  redis.call('HSET', KEYS[1], 'h', ARGV[2])
end
return 1
"""

# ARGV[1] expected version, ARGV[2] snapshot, ARGV[3] TTL, ARGV[4] token, ARGV[5] the token the
# table's last write must have ('' for any), ARGV[6] the instance the table must be ('' for any),
# ARGV[7] the changes channel, ARGV[8] the table id, ARGV[9] an idempotency key ('' for none),
# ARGV[10] the record to keep under it, ARGV[11…] the events to append.
# Returns {1, version, last seq}: written;  {-1, current version}: conflict;  {0}: no table;
# {2, record}: the idempotency key already has a record, nothing written.
CAS_LUA: Final = """
local cur = redis.call('HMGET', KEYS[1], 'v', 'w', 'e', 'q')
if not cur[1] then
  return {0}
end
if ARGV[9] ~= '' then
  local kept = redis.call('HGET', KEYS[3], ARGV[9])
  if kept then
    return {2, kept}
  end
end
local v = tonumber(cur[1])
local expected = tonumber(ARGV[1])
if v ~= expected then
  if v == expected + 1 and cur[2] == ARGV[4] then
    return {1, v, tonumber(cur[4] or 0)}
  end
  return {-1, v}
end
if (ARGV[5] ~= '' and cur[2] ~= ARGV[5]) or (ARGV[6] ~= '' and cur[3] ~= ARGV[6]) then
  return {-1, v}
end
v = redis.call('HINCRBY', KEYS[1], 'v', 1)
local q = tonumber(cur[4] or 0)
for i = 11, #ARGV do
  q = q + 1
  redis.call('XADD', KEYS[2], q .. '-0', 'v', v, 'd', ARGV[i])
end
redis.call('HSET', KEYS[1], 's', ARGV[2], 'w', ARGV[4], 'q', q)
if ARGV[9] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[9], ARGV[10])
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('EXPIRE', KEYS[3], ARGV[3])
redis.call('PUBLISH', ARGV[7], ARGV[8])
return {1, v, q}
"""

# ARGV[1] an idempotency key ('' for none). Returns {version, snapshot, instance, last seq,
# record or false}, or {} when there is no table.
GET_LUA: Final = """
local cur = redis.call('HMGET', KEYS[1], 'v', 's', 'e', 'q')
if not cur[1] or not cur[2] then
  return {}
end
local kept = false
if ARGV[1] ~= '' then
  kept = redis.call('HGET', KEYS[3], ARGV[1])
end
return {cur[1], cur[2], cur[3] or '', cur[4] or '0', kept}
"""

# ARGV[1] the instance, ARGV[2] key, ARGV[3] record, ARGV[4] TTL. Returns the record kept under
# the key (the one given, or an earlier one), or false when the table is not that instance.
REMEMBER_LUA: Final = """
if redis.call('HGET', KEYS[1], 'e') ~= ARGV[1] then
  return false
end
redis.call('HSETNX', KEYS[3], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[3], redis.call('TTL', KEYS[1]))
return redis.call('HGET', KEYS[3], ARGV[2])
"""

# ARGV[1] the first seq wanted, ARGV[2] how many at most, ARGV[3] '1' for the snapshot too.
# Returns {instance, version, last seq, entries[, snapshot]} or {} when there is no table.
EVENTS_LUA: Final = """
local cur = redis.call('HMGET', KEYS[1], 'e', 'v', 'q', 's')
if not cur[2] then
  return {}
end
local entries = redis.call('XRANGE', KEYS[2], ARGV[1] .. '-0', '+', 'COUNT', ARGV[2])
if ARGV[3] == '1' then
  return {cur[1] or '', cur[2], cur[3] or '0', entries, cur[4]}
end
return {cur[1] or '', cur[2], cur[3] or '0', entries}
"""

# ARGV[1] the changes channel, ARGV[2] the table id. Returns how many keys were removed.
DELETE_LUA: Final = """
local removed = redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if removed > 0 then
  redis.call('PUBLISH', ARGV[1], ARGV[2])
end
return removed
"""
