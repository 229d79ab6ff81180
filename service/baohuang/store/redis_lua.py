"""The building blocks of the Redis table store's Lua scripts (:mod:`.redis_scripts`): what every
table script starts with (its names and its arguments), and the functions several of them share.
"""

from __future__ import annotations

from typing import Final

from .layout import LUA_NAMES

# Every table script gets the table's five keys (.layout.KEY_SUFFIXES), as locals: hash_key its
# record, log_key its event log, answers_key its remembered answers (idempotency key → record),
# answer_order_key those keys in the order they were kept, deals_key its finished deals' records,
# oldest first; and F, L: the fields of the record and of a logged event, by name.


def arguments(args: type[tuple[object, ...]]) -> str:
    """``local a, b, c = ARGV[1], ARGV[2], ARGV[3]`` for a NamedTuple's fields, and ``rest``:
    the index of the first ARGV after them (a script's list of events)."""
    names: tuple[str, ...] = args._fields  # type: ignore[attr-defined]
    values = ", ".join(f"ARGV[{i}]" for i in range(1, len(names) + 1))
    return f"local {', '.join(names)} = {values}\nlocal rest = {len(names) + 1}\n"


def unpacked(args: type[tuple[object, ...]]) -> str:
    """What a table script starts with: the names every table script has
    (:data:`.layout.LUA_NAMES`), then its :func:`arguments`."""
    return LUA_NAMES + arguments(args)


# The token of the event at ``seq`` ('' for one logged without a token), or false when the log
# holds no such event.
TOKEN_AT: Final = """
local function token_at(seq)
  local at = redis.call('XRANGE', log_key, seq .. '-0', seq .. '-0')
  if not at[1] then
    return false
  end
  local fields = at[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == L.token then
      return fields[i + 1]
    end
  end
  return ''
end
"""

# Finished deals' events leave the log up to seq ``upto`` (never backwards): the hash keeps the
# last seq gone (F.trimmed) and the token of the event there (F.trimmed_token), so that a reader
# standing exactly at it is told its position still holds (the anchor), and one before it that it
# is gone.
TRIM: Final = (
    TOKEN_AT
    + """
local function trim(upto)
  local trimmed = tonumber(redis.call('HGET', hash_key, F.trimmed) or '0')
  if upto <= trimmed then
    return
  end
  local token = token_at(upto) or ''
  redis.call('XTRIM', log_key, 'MINID', (upto + 1) .. '-0')
  redis.call('HSET', hash_key, F.trimmed, upto, F.trimmed_token, token)
end
"""
)

# A remembered answer is kept under its key once; beyond ``most`` keys per table the oldest goes.
KEEP: Final = """
local function keep(key, record, most)
  if redis.call('HSETNX', answers_key, key, record) == 1 then
    redis.call('RPUSH', answer_order_key, key)
    while redis.call('LLEN', answer_order_key) > most do
      redis.call('HDEL', answers_key, redis.call('LPOP', answer_order_key))
    end
  end
end
"""
