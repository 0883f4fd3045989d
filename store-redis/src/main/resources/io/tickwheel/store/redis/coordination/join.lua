-- join: check (or fix, for the first node) the cluster's configuration.
-- KEYS[1] cluster meta hash, KEYS[2] the single-node meta hash of the prefix, KEYS[3] the single-node timers hash.
-- ARGV: partitions, data format.
-- Returns {'ok', partitions}, {'single', ''} when a single node uses the store, {'partitions', stored count} when
-- the cluster has another count, {'format', stored format} for another data format.
local meta, single, singleTimers = KEYS[1], KEYS[2], KEYS[3]
if redis.call('EXISTS', single) == 1 or redis.call('EXISTS', singleTimers) == 1 then
  return {'single', ''}
end
local m = redis.call('HMGET', meta, 'partitions', 'format')
if not m[1] then
  redis.call('HSET', meta, 'mode', 'cluster', 'partitions', ARGV[1], 'format', ARGV[2])
  return {'ok', ARGV[1]}
end
if m[2] ~= ARGV[2] then
  return {'format', tostring(m[2])}
end
if m[1] ~= ARGV[1] then
  return {'partitions', m[1]}
end
return {'ok', m[1]}
