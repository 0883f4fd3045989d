-- recordFirings of several partition stores in one call (a standalone Redis; on a Redis Cluster, partitions whose
-- keys share one hash slot). Runs after fire.lua's body, which is wrapped as fire_one(KEYS, ARGV).
-- KEYS: per section 10 keys: fire.lua's 9 of its partition, then the partition's lease hash.
-- ARGV[1] = the number of sections; then per section: the writer's lease epoch, n (its requests), 7n request args
-- (as fire.lua's ARGV).
-- Sections apply in list order, one after the other (two sections of one partition: the later sees what the
-- earlier left). Each is fenced on its own, exactly as fence.lua fences a single call: unless its lease's epoch is
-- that epoch and the lease has not expired by Redis TIME, it is refused having written nothing, and the others apply.
-- Returns per section {status, reply}: 'OK' with fire.lua's reply; 'FENCED ...' with an empty reply; 'ERR ...' with
-- an empty reply when its section failed (a script error: what it wrote before the error stays written).
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local sections = tonumber(ARGV[1])
local res = {}
local a = 2
for s = 0, sections - 1 do
  local kb = 10 * s
  local keys = {}
  for k = 1, 9 do
    keys[k] = KEYS[kb + k]
  end
  local lease = KEYS[kb + 10]
  local epoch = ARGV[a]
  local n = tonumber(ARGV[a + 1])
  a = a + 2
  local args = {}
  for i = 1, 7 * n do
    args[i] = ARGV[a + i - 1]
  end
  a = a + 7 * n
  local l = redis.call('HMGET', lease, 'epoch', 'exp')
  if l[1] ~= epoch or not l[2] or tonumber(l[2]) <= now then
    res[s + 1] = {'FENCED lease epoch ' .. epoch .. ' is not current (stored ' .. tostring(l[1]) .. ', expires '
      .. tostring(l[2]) .. ', now ' .. now .. ')', {}}
  else
    local ok, out = pcall(fire_one, keys, args)
    if not ok then
      res[s + 1] = {'ERR ' .. (type(out) == 'table' and tostring(out.err) or tostring(out)), {}}
    elseif type(out) == 'table' and out.err then
      res[s + 1] = {'ERR ' .. tostring(out.err), {}}
    else
      res[s + 1] = {'OK', out}
    end
  end
end
return res
