-- fence (prepended to every write script of a cluster partition store): the last KEY is the partition's lease hash
-- (same hash tag as its data, so one slot), the last ARGV the writer's lease epoch. Both are taken off KEYS/ARGV
-- before the script proper runs. Refuses the whole call, having written nothing, unless the lease's epoch is that
-- epoch and the lease has not expired by Redis TIME.
local fence_lease = table.remove(KEYS)
local fence_epoch = table.remove(ARGV)
local fence_l = redis.call('HMGET', fence_lease, 'epoch', 'exp')
local fence_t = redis.call('TIME')
local fence_now = tonumber(fence_t[1]) * 1000 + math.floor(tonumber(fence_t[2]) / 1000)
if fence_l[1] ~= fence_epoch or not fence_l[2] or tonumber(fence_l[2]) <= fence_now then
  return redis.error_reply('FENCED lease epoch ' .. fence_epoch .. ' is not current (stored ' .. tostring(fence_l[1])
    .. ', expires ' .. tostring(fence_l[2]) .. ', now ' .. fence_now .. ')')
end
