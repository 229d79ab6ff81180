-- wrk script for bench/http_bench.py `play`/`tables`: one connection per thread (run with
-- -tN -cN), each thread sends the lines of its own file SEQ_DIR/<thread number>.txt in order,
-- one POST per line "path<TAB>body", pre-formatted once in init(). For live tables the file is
-- the thread's own tables' move sequences with their versions, so every move must answer 200;
-- non-200 answers are counted (and the sequence goes on). A thread whose file runs out stops
-- (reported as "exhausted"; answers after that are not counted: size the files so none runs
-- out). done() prints one line "WRK_JSON {...}" that http_bench.py parses.
local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  threads[#threads + 1] = thread
end

local requests = {}
local index = 0
non200 = 0
last_bad = 0
first_bad = ""
exhausted = 0

function init(args)
  local headers = { ["Content-Type"] = "application/json" }
  for line in io.lines(os.getenv("SEQ_DIR") .. "/" .. id .. ".txt") do
    local tab = line:find("\t", 1, true)
    if tab then
      requests[#requests + 1] = wrk.format("POST", line:sub(1, tab - 1), headers, line:sub(tab + 1))
    end
  end
end

-- wrk calls request() once on thread 0's state before the run, to check the script
-- (script_verify_request); that request is never sent, so it must not consume a move.
local verified = false

function request()
  if not verified then
    verified = true
    if id == 0 then
      return requests[1]
    end
  end
  index = index + 1
  if index > #requests then
    exhausted = 1
    wrk.thread:stop()
    index = 1
  end
  return requests[index]
end

function response(status, headers, body)
  if status ~= 200 and exhausted == 0 then
    non200 = non200 + 1
    last_bad = status
    if first_bad == "" then
      first_bad = "thread " .. id .. " request " .. index .. ": " .. body:sub(1, 300)
    end
  end
end

function done(summary, latency, requests_)
  local bad, last, out = 0, 0, 0
  for _, thread in ipairs(threads) do
    bad = bad + thread:get("non200")
    if thread:get("last_bad") ~= 0 then
      last = thread:get("last_bad")
    end
    out = out + thread:get("exhausted")
    if thread:get("first_bad") ~= "" then
      io.write("FIRST_BAD " .. thread:get("first_bad") .. "\n")
    end
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
    '"non200": %d, "last_bad_status": %d, "exhausted_threads": %d, ' ..
    '"latency_us": {"mean": %.1f, "p50": %d, "p90": %d, "p99": %d, "max": %d}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout, bad, last, out,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max))
end
