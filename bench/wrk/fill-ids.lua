-- wrk script: POST /v1/timers/batch with ids k1, k2, ... k1000000 in batches of 1,000 (each due in 2 h), then
-- keeps repeating the last batch (409s) once a million are created. Used by cold-delete.sh; run with -c1.
local n = -1
function request()
  n = n + 1
  if n >= 1000 then n = 1000 end
  local parts = {}
  for i = 1, 1000 do
    parts[i] = '{"id":"k' .. (n * 1000 + i) .. '","topic":"bench","delayMs":7200000,"payload":{"n":' .. i .. '}}'
  end
  return wrk.format("POST", "/v1/timers/batch", {["Content-Type"]="application/json"}, '{"timers":[' .. table.concat(parts, ",") .. ']}')
end
