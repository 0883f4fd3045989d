-- wrk script: DELETE /v1/timers/k<random 1..1000000> (ids of fill-ids.lua); prints the count of each status
-- (204: deleted, 404: already gone, other) after the run. Used by cold-delete.sh.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(os.time() + #threads)
  c204, c404, cother = 0, 0, 0
end

function request()
  return wrk.format("DELETE", "/v1/timers/k" .. math.random(1, 1000000))
end

function response(status)
  if status == 204 then
    c204 = c204 + 1
  elseif status == 404 then
    c404 = c404 + 1
  else
    cother = cother + 1
  end
end

function done(summary, latency, requests)
  local a, b, o = 0, 0, 0
  for _, t in ipairs(threads) do
    a, b, o = a + t:get("c204"), b + t:get("c404"), o + t:get("cother")
  end
  io.write(string.format("204: %d\n404: %d\noth: %d\n", a, b, o))
end
