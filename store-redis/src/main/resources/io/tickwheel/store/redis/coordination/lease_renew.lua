-- renew: extend a lease if the caller holds it with this epoch and it has not expired.
-- KEYS[1] the partition's lease hash. ARGV: node id, epoch, lease ms.
-- Returns the new expiry (string), or false when the lease was lost.
local lease = KEYS[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local l = redis.call('HMGET', lease, 'node', 'epoch', 'exp')
if l[1] ~= ARGV[1] or l[2] ~= ARGV[2] or tonumber(l[3] or '0') <= now then
  return false
end
local exp = string.format('%d', now + tonumber(ARGV[3]))
redis.call('HSET', lease, 'exp', exp)
return exp
