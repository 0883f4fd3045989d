-- init: stamp (or check) the data format of this key prefix for a single (non-cluster) node.
-- KEYS[1] meta hash, KEYS[2] the cluster meta hash of the same prefix (a cluster uses this store: refuse).
-- ARGV: format version, the older format version this one upgrades in place (a superset: nothing to rewrite).
-- Returns the stored format version (after the upgrade), or the error CLUSTER when a cluster uses the prefix.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return redis.error_reply('CLUSTER a tickwheel cluster with ' .. tostring(redis.call('HGET', KEYS[2], 'partitions'))
    .. ' partitions uses this store')
end
if redis.call('HSETNX', KEYS[1], 'format', ARGV[1]) == 1 then
  return ARGV[1]
end
local f = redis.call('HGET', KEYS[1], 'format')
if f == ARGV[2] then
  redis.call('HSET', KEYS[1], 'format', ARGV[1])
  return ARGV[1]
end
return f
