-- acquire: take a partition's lease if it is free (never leased, released or expired), renew it if the caller holds
-- it. KEYS[1] the partition's lease hash (node, epoch, exp). ARGV: node id, lease ms.
-- A new epoch is max(stored epoch + 1, TIME in ms): it grows at every change of hands and is never issued twice,
-- also after the lease hash was lost (a failover that lost writes), as TIME has moved past every epoch issued before.
-- Returns {1, epoch, expiresAt} when the caller holds it now, {0, holder, expiresAt} when another node does.
local lease = KEYS[1]
local node, ms = ARGV[1], tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local l = redis.call('HMGET', lease, 'node', 'epoch', 'exp')
local exp = tonumber(l[3] or '0')
if l[1] and l[1] ~= '' and exp > now then
  if l[1] == node then
    redis.call('HSET', lease, 'exp', string.format('%d', now + ms))
    return {1, l[2], string.format('%d', now + ms)}
  end
  return {0, l[1], l[3]}
end
local epoch = now
if l[2] then
  epoch = math.max(tonumber(l[2]) + 1, now)
end
redis.call('HSET', lease, 'node', node, 'epoch', string.format('%d', epoch), 'exp', string.format('%d', now + ms))
return {1, string.format('%d', epoch), string.format('%d', now + ms)}
