-- trimDeliveries: removes finished deliveries (succeeded and dead; pending ones are never touched) beyond the
-- retention:
--   by count: the oldest by seq while more than ARGV[1] are finished, at most ARGV[3] per call;
--   by age: those changed before ARGV[2] (epoch ms), among the next ARGV[4] finished ones after where the previous
--   call's age check stopped (KEYS[5], a seq; deleted at the end, so the next call starts again from the oldest).
-- A call with nothing to remove reads ARGV[4] records, never the whole head of the log again: an old record behind
-- recent ones goes once the check has come round to it (a retried delivery can finish after later ones).
-- KEYS[1] deliveries hash, KEYS[2] succeeded zset, KEYS[3] dead zset, KEYS[4] all zset (all scored by seq),
-- KEYS[5] the age check's position (string).
-- Returns {removed, more, left}: more is 1 when the count is still above ARGV[1], or when every record the age check
-- read was old (the caller calls again, letting other clients run in between); left is how many finished deliveries
-- are left. ARGV[3] and ARGV[4] are at most 7,000
-- (unpack's limit).
local maxCount, cutoff, budget, ageBudget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local finished = redis.call('ZCARD', KEYS[2]) + redis.call('ZCARD', KEYS[3])
if finished == 0 then
  redis.call('DEL', KEYS[5])
  return {0, 0, 0}
end
-- the first n finished seqs after `after` (exclusive; '-inf' for all) in seq order: the two zsets' ranges merged,
-- as {seq, its zset}
local function next_finished(after, n)
  local a = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. after, '+inf', 'LIMIT', 0, n)
  local b = redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. after, '+inf', 'LIMIT', 0, n)
  local out, i, j = {}, 1, 1
  while #out < n and (i <= #a or j <= #b) do
    if j > #b or (i <= #a and tonumber(a[i]) < tonumber(b[j])) then
      out[#out + 1] = {a[i], KEYS[2]}
      i = i + 1
    else
      out[#out + 1] = {b[j], KEYS[3]}
      j = j + 1
    end
  end
  return out
end
local function drop(list)
  if #list == 0 then
    return
  end
  local seqs, by = {}, {[KEYS[2]] = {}, [KEYS[3]] = {}}
  for i = 1, #list do
    seqs[i] = list[i][1]
    local z = by[list[i][2]]
    z[#z + 1] = list[i][1]
  end
  redis.call('HDEL', KEYS[1], unpack(seqs))
  redis.call('ZREM', KEYS[4], unpack(seqs))
  for z, s in pairs(by) do
    if #s > 0 then
      redis.call('ZREM', z, unpack(s))
    end
  end
end
local removed = 0
local excess = finished - maxCount
if excess > 0 then
  removed = math.min(excess, budget)
  drop(next_finished('-inf', removed))
  if excess > removed then
    return {removed, 1, finished - removed}
  end
end
local after = redis.call('GET', KEYS[5]) or '-inf'
local cands = next_finished(after, ageBudget)
if #cands < ageBudget then
  redis.call('DEL', KEYS[5])
else
  redis.call('SET', KEYS[5], cands[#cands][1])
end
if #cands == 0 then
  return {removed, 0, finished - removed}
end
local seqs = {}
for i = 1, #cands do
  seqs[i] = cands[i][1]
end
local recs = redis.call('HMGET', KEYS[1], unpack(seqs))
local old = {}
for i = 1, #cands do
  local r = recs[i]
  local k = r and string.find(r, '"updatedAt":', 1, true)
  local u = k and tonumber(string.match(r, '^%-?%d+', k + 12))
  if u and u < cutoff then
    old[#old + 1] = cands[i]
  end
end
drop(old)
return {removed + #old, (#old == ageBudget) and 1 or 0, finished - removed - #old}
