-- wrk script: POST /v1/timers/touch with 1,000 consecutive keys of k1..kKEYS from a random start (the keys
-- touch.sh created), {"delayMs":3600000}. Touches per second = wrk's Requests/sec x 1,000.
-- Usage: wrk -t1 -c8 -d10s -s bench/wrk/touch-batch.lua http://127.0.0.1:8089 -- 10000
local keys = 10000
local size = 1000

function init(args)
  if args[1] then
    keys = tonumber(args[1])
  end
  math.randomseed(os.time())
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  local start = math.random(0, keys - size)
  local parts = {}
  for i = 1, size do
    parts[i] = '"k' .. (start + i) .. '"'
  end
  return wrk.format("POST", "/v1/timers/touch", nil, '{"ids":[' .. table.concat(parts, ",") .. '],"delayMs":3600000}')
end
