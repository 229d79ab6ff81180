-- wrk script for bench/http_bench.py.
--   BODY_FILE unset: GET the URL's path (e.g. /healthz).
--   BODY_FILE set:   POST, rotating over the file's lines (one JSON body per line), each request
--                    pre-formatted once in init(); every connection starts at a different line.
-- done() prints one line "WRK_JSON {...}" that http_bench.py parses.
local requests = {}
local index = 0

function init(args)
  local path = os.getenv("BODY_FILE")
  if path == nil or path == "" then
    return
  end
  local headers = { ["Content-Type"] = "application/json" }
  for line in io.lines(path) do
    if #line > 0 then
      requests[#requests + 1] = wrk.format("POST", nil, headers, line)
    end
  end
  index = math.random(#requests) - 1
end

function request()
  if #requests == 0 then
    return wrk.format("GET")
  end
  index = index % #requests + 1
  return requests[index]
end

function done(summary, latency, requests_)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
    '"latency_us": {"mean": %.1f, "p50": %d, "p90": %d, "p99": %d, "max": %d}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max))
end
