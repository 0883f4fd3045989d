-- renew_all: lease_renew.lua for many leases of one holder in one call, on a standalone Redis (on a Redis Cluster the
-- partitions' lease hashes are in different slots, so the coordinator sends lease_renew.lua per lease there).
-- KEYS: the partitions' lease hashes. ARGV[1] node id, ARGV[2] lease ms, ARGV[2 + i] the epoch held for KEYS[i].
-- Per lease, as lease_renew.lua: extended only if the caller holds it with that epoch and it has not expired.
-- Returns per lease, in KEYS order, the new expiry (string), or false when the lease was lost.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local exp = string.format('%d', now + tonumber(ARGV[2]))
local out = {}
for i = 1, #KEYS do
  local l = redis.call('HMGET', KEYS[i], 'node', 'epoch', 'exp')
  if l[1] ~= ARGV[1] or l[2] ~= ARGV[2 + i] or tonumber(l[3] or '0') <= now then
    out[i] = false
  else
    redis.call('HSET', KEYS[i], 'exp', exp)
    out[i] = exp
  end
end
return out
