-- wrk script: POST /v1/timers/k<n>/touch {"delayMs":3600000} on a random one of the keys k1..kKEYS (default 10,000,
-- or the count given after "--"), which touch.sh created beforehand. Touches per second = wrk's Requests/sec.
-- Usage: wrk -t1 -c64 -d10s -s bench/wrk/touch.lua http://127.0.0.1:8089 -- 10000
local keys = 10000
local body = '{"delayMs":3600000}'

function init(args)
  if args[1] then
    keys = tonumber(args[1])
  end
  math.randomseed(os.time())
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  return wrk.format("POST", "/v1/timers/k" .. math.random(1, keys) .. "/touch", nil, body)
end
