-- wrk script: POST /v1/timers, one new timer per request, due in 1 h (nothing fires during a run).
-- Ids are unique per run, per wrk thread and per request: "b<time>-<random>-<thread>-<n>", so runs can be
-- repeated against the same server without 409s (wrk counts any answer but 2xx/3xx as "Non-2xx").
-- Usage: wrk -t1 -c64 -d10s -s bench/wrk/post.lua http://127.0.0.1:8089

local threads = {}

function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

local prefix
local n = 0

function init(args)
  math.randomseed(os.time() + (tid or 0))
  prefix = string.format("b%d-%d-%d-", os.time(), math.random(1, 1000000000), tid or 0)
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  n = n + 1
  return wrk.format("POST", "/v1/timers", nil,
    '{"id":"' .. prefix .. n .. '","topic":"bench","delayMs":3600000,"payload":{"n":' .. n .. '}}')
end
