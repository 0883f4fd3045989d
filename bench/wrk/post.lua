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
  return wrk.format("POST", "/v1/timers", nil,
    '{"id":"' .. prefix .. n .. '","topic":"bench","delayMs":3600000,"payload":{"n":' .. n .. '}}')
end

-- answers other than 2xx: counted per status, the first body of each kept; done() prints them (stderr-free: wrk's
-- report is stdout), e.g. "non-2xx 503 x12: {"error":...}"
errs = ""
local counts, firsts = {}, {}

function response(status, headers, body)
  if status >= 300 then
    if not counts[status] then
      firsts[status] = string.sub(body or "", 1, 200)
    end
    counts[status] = (counts[status] or 0) + 1
    local parts = {}
    for s, c in pairs(counts) do
      table.insert(parts, s .. " x" .. c .. ": " .. firsts[s])
    end
    errs = table.concat(parts, " | ")
  end
end

function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    local e = t:get("errs")
    if e and e ~= "" then
      io.write("non-2xx " .. e .. "\n")
    end
  end
end
