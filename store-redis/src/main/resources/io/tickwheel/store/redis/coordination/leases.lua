-- leases: every partition's lease in one call, on a standalone Redis (on a Redis Cluster the partitions' lease hashes
-- are in different slots, so the coordinator reads them one HMGET per partition, pipelined, there).
-- KEYS: the partitions' lease hashes. Returns per lease, in KEYS order, three values: node, epoch, exp (false where
-- absent).
local out = {}
for i = 1, #KEYS do
  local l = redis.call('HMGET', KEYS[i], 'node', 'epoch', 'exp')
  out[3 * i - 2] = l[1]
  out[3 * i - 1] = l[2]
  out[3 * i] = l[3]
end
return out
