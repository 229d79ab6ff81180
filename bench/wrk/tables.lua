-- wrk script for bench/overload_bench.py and bench/clock_bench.py: live-table moves with
-- `wrk -tT -cN`, any N. Each request is a move on a table that has no other request in flight,
-- against the version its last answer gave, so every request is a real compare-and-set.
--
-- wrk keeps one Lua state per thread, not per connection, and response() does not say which
-- connection answered; the answer does: a move answer starts {"version":V,"instance":"I", and
-- the instance names the table. So each thread keeps a stack of its idle tables: request() takes
-- the one put back last and sends its next move, response() finds the table by its instance,
-- records its version and puts it back. Last in, first out: a thread keeps playing as many
-- tables as it has connections busy, the rest are spares, so a connection plays the table it
-- just played, or nearly (and the server's cache of the tables it wrote last, 1,024, holds
-- them). An answer that is not 200 names no table: the table it was for stays taken (counted as
-- "lost"); when no table is idle the thread takes back the one taken longest ago and sends its
-- move again with the version it knew. Give each thread more tables than connections, and
-- nothing is ever taken back while answers are 200.
--
-- Environment: TABLES (lines "id<TAB>instance<TAB>version<TAB>deal", from the bench's PUTs),
-- MOVES (lines "deal<TAB>move JSON", each deal's moves in order from its first snapshot),
-- THREADS (wrk's -t). Thread k plays the tables on lines k, k+T, k+2T, … A table whose deal
-- has no moves left is retired. done() prints "WRK_JSON {...}" with the answers by status and
-- by problem code.
local counter = 0
local threads = {}

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  threads[#threads + 1] = thread
end

local tables, by_instance, moves = {}, {}, {}
local idle = {}
local taken, serial = {}, 0
local headers = { ["Content-Type"] = "application/json" }

n200, n409, n422, overloaded, unavailable, other503, other, lost, retaken, retired = 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
first_bad = ""
exhausted = 0

local function push(i)
  idle[#idle + 1] = i
end

function init(args)
  local total = tonumber(os.getenv("THREADS") or "1")
  for line in io.lines(os.getenv("MOVES")) do
    local deal, move = line:match("^(%d+)\t(.*)$")
    if deal then
      deal = tonumber(deal)
      moves[deal] = moves[deal] or {}
      moves[deal][#moves[deal] + 1] = move
    end
  end
  local n = 0
  for line in io.lines(os.getenv("TABLES")) do
    local tid, inst, version, deal = line:match("^(%S+)\t(%x+)\t(%d+)\t(%d+)$")
    if tid then
      if n % total == id then
        local t = { id = tid, path = "/v1/tables/" .. tid .. "/moves", first = tonumber(version),
                    version = tonumber(version), deal = tonumber(deal) }
        tables[#tables + 1] = t
        by_instance[inst] = #tables
        push(#tables)
      end
      n = n + 1
    end
  end
end

-- wrk calls request() once on thread 0's state before the run to check the script; that
-- request is never sent, so it must not take a table.
local verified = false

local function take()
  while #idle > 0 do
    local i = idle[#idle]
    idle[#idle] = nil
    local t = tables[i]
    if t.version - t.first < #moves[t.deal] then
      return i
    end
    retired = retired + 1
  end
  -- nothing idle: take back the table taken longest ago (its answer was lost)
  local oldest, at = nil, math.huge
  for i, s in pairs(taken) do
    if s < at then
      oldest, at = i, s
    end
  end
  if oldest then
    retaken = retaken + 1
  end
  return oldest
end

function request()
  if not verified then
    verified = true
    if id == 0 then
      return wrk.format("GET", "/healthz")
    end
  end
  local i = take()
  if i == nil then
    exhausted = 1
    wrk.thread:stop()
    return wrk.format("GET", "/healthz")
  end
  serial = serial + 1
  taken[i] = serial
  local t = tables[i]
  local body = '{"move":' .. moves[t.deal][t.version - t.first + 1] .. ',"version":' .. t.version .. '}'
  return wrk.format("POST", t.path, headers, body)
end

function response(status, hdrs, body)
  if status == 200 then
    local version, inst = body:match('^{"version":(%d+),"instance":"(%x+)"')
    local i = inst and by_instance[inst]
    if i then
      n200 = n200 + 1
      tables[i].version = tonumber(version)
      if taken[i] then
        taken[i] = nil
        push(i)
      end
      return
    end
    if body:sub(1, 9) == '{"status"' then
      return -- the /healthz of the check above, or of a thread that ran out of tables
    end
  end
  lost = lost + 1
  if status == 409 then
    n409 = n409 + 1
  elseif status == 422 then
    n422 = n422 + 1
  elseif status == 503 then
    local code = body:match('"code":"([%u_]+)"')
    if code == "OVERLOADED" then
      overloaded = overloaded + 1
    elseif code == "STORE_UNAVAILABLE" then
      unavailable = unavailable + 1
    else
      other503 = other503 + 1
    end
  else
    other = other + 1
  end
  if first_bad == "" then
    first_bad = "thread " .. id .. " status " .. status .. ": " .. body:sub(1, 300)
  end
end

function done(summary, latency, requests_)
  local sum = function(name)
    local s = 0
    for _, thread in ipairs(threads) do
      s = s + thread:get(name)
    end
    return s
  end
  for _, thread in ipairs(threads) do
    if thread:get("first_bad") ~= "" then
      io.write("FIRST_BAD " .. thread:get("first_bad") .. "\n")
    end
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
    '"answers": {"200": %d, "409": %d, "422": %d, "503 OVERLOADED": %d, ' ..
    '"503 STORE_UNAVAILABLE": %d, "503 other": %d, "other": %d}, ' ..
    '"lost": %d, "retaken": %d, "retired": %d, "exhausted_threads": %d, ' ..
    '"latency_us": {"mean": %.1f, "p50": %d, "p90": %d, "p99": %d, "max": %d}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    sum("n200"), sum("n409"), sum("n422"), sum("overloaded"), sum("unavailable"),
    sum("other503"), sum("other"), sum("lost"), sum("retaken"), sum("retired"),
    sum("exhausted"),
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max))
end
