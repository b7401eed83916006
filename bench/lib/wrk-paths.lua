-- wrk script for bench/lib/wrk-load.mjs: each path of a file sent exactly once, then the threads
-- stop. wrk itself runs for a duration; this makes it run for a list: thread t of T takes the
-- lines t, t+T, t+2T... of the file (args: <paths file> <threads>), sends each once over its
-- connections (a closed loop: a connection sends its next request when its answer is whole),
-- holds every connection back once its list is sent (delay), and when all its answers are in,
-- says so on stdout ("wrk-thread-done") and stops. wrk-load.mjs then ends wrk with SIGINT, which
-- runs done() below: one line of JSON ("wrk-result ...") with the counts and the latencies.

local threads = {}
local count = 0

function setup(thread)
  thread:set("id", count)
  count = count + 1
  table.insert(threads, thread)
end

local requests = {}
-- Requests promised to a connection by delay(), sent by request(), and answered.
local promised = 0
local sent = 0
local answered = 0
-- Answers outside 2xx, counted here: wrk's own status count is of answers above 399 only.
non2xx = 0

local function finished()
  io.write("wrk-thread-done\n")
  io.flush()
  wrk.thread:stop()
end

function init(args)
  local total = tonumber(args[2])
  local i = 0
  for line in io.lines(args[1]) do
    if i % total == id then requests[#requests + 1] = wrk.format("GET", line) end
    i = i + 1
  end
  if #requests == 0 then finished() end
end

-- Called before each request of a connection: at once while the list lasts, then never (an hour).
-- Counted here, not in request(): several connections can pass delay() before the first of them
-- calls request(), and each must find a path left.
function delay()
  if promised < #requests then
    promised = promised + 1
    return 0
  end
  return 3600000
end

function request()
  -- wrk also calls request() once before the load, to count the requests in what it returns (its
  -- pipelining): that call was promised nothing, and sends nothing.
  if sent >= promised then return requests[1] or wrk.format("GET", "/") end
  sent = sent + 1
  return requests[sent]
end

function response(status, headers, body)
  answered = answered + 1
  if status < 200 or status > 299 then non2xx = non2xx + 1 end
  if answered == #requests then finished() end
end

function done(summary, latency, requests)
  local bad = 0
  for _, thread in ipairs(threads) do bad = bad + thread:get("non2xx") end
  local e = summary.errors
  io.write(string.format(
    'wrk-result {"requests":%d,"non2xx":%d,"errors":%d,"timeouts":%d,"p50":%.3f,"p99":%.3f,"max":%.3f,"us":%d}\n',
    summary.requests, bad, e.connect + e.read + e.write, e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000, summary.duration))
  io.flush()
end
