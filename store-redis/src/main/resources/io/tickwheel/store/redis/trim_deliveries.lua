-- trimDeliveries: among the oldest ARGV[3] finished deliveries (succeeded and dead, by seq), removes those beyond
-- ARGV[1] finished in all, and those changed before ARGV[2] (epoch ms). Pending ones are never touched.
-- KEYS[1] deliveries hash, KEYS[2] succeeded zset, KEYS[3] dead zset, KEYS[4] all zset. Returns how many went.
local maxCount, cutoff, budget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local finished = redis.call('ZCARD', KEYS[2]) + redis.call('ZCARD', KEYS[3])
if finished == 0 then
  return 0
end
local cands = {}
for z = 2, 3 do
  local s = redis.call('ZRANGE', KEYS[z], 0, budget - 1)
  for i = 1, #s do
    cands[#cands + 1] = {tonumber(s[i]), s[i], KEYS[z]}
  end
end
table.sort(cands, function(x, y) return x[1] < y[1] end)
local removed = 0
for i = 1, math.min(#cands, budget) do
  local c = cands[i]
  local drop = finished - removed > maxCount
  if not drop then
    local rec = redis.call('HGET', KEYS[1], c[2])
    if rec then
      local u = string.match(rec, '"updatedAt":(%-?%d+)')
      drop = u ~= nil and tonumber(u) < cutoff
    end
  end
  if drop then
    redis.call('HDEL', KEYS[1], c[2])
    redis.call('ZREM', c[3], c[2])
    redis.call('ZREM', KEYS[4], c[2])
    removed = removed + 1
  end
end
return removed
