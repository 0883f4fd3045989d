-- wrk script: POST /v1/timers/batch with 1,000 new timers per request (or the count given after "--"),
-- each due in 1 h, ids unique per run, thread, request and position (see post.lua).
-- Timers per second = wrk's Requests/sec x the count.
-- A second argument picks the body generator: "once" (default) or "cron" (kind cron, "M * * * *" with the minute
-- M = position mod 60: 60 distinct hourly expressions, due within the hour; same topic and payload).
-- Usage: wrk -t1 -c8 -d10s -s bench/wrk/batch.lua http://127.0.0.1:8089 -- 1000 [once|cron]

local threads = {}

function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

local prefix
local size = 1000
local n = 0
local timer = nil

local generators = {
  once = function(id, i)
    return '{"id":"' .. id .. '","topic":"bench","delayMs":3600000,"payload":{"n":' .. i .. '}}'
  end,
  cron = function(id, i)
    return '{"id":"' .. id .. '","topic":"bench","kind":"cron","cron":"' .. (i % 60) .. ' * * * *","payload":{"n":' .. i .. '}}'
  end,
}

function init(args)
  if args[1] then
    size = tonumber(args[1])
  end
  timer = generators[args[2] or "once"]
  if not timer then
    error("unknown body generator " .. tostring(args[2]) .. " (once or cron)")
  end
  -- seeded from /dev/urandom: wrk processes started in the same second (one per cluster node) must not share ids
  local f = io.open("/dev/urandom", "rb")
  local seed = os.time()
  if f then
    local b = f:read(4)
    f:close()
    seed = 0
    for k = 1, #b do seed = seed * 256 + b:byte(k) end
  end
  math.randomseed(seed + (tid or 0))
  prefix = string.format("b%d-%d-%d-", os.time(), math.random(1, 1000000000), tid or 0)
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  n = n + 1
  local parts = {}
  for i = 1, size do
    parts[i] = timer(prefix .. n .. '.' .. i, i)
  end
  return wrk.format("POST", "/v1/timers/batch", nil, '{"timers":[' .. table.concat(parts, ",") .. ']}')
end
