-- init: stamp (or check) the data format of this key prefix. KEYS[1] meta hash.
-- ARGV: format version, the older format version this one upgrades in place (a superset: nothing to rewrite).
-- Returns the stored format version (after the upgrade).
if redis.call('HSETNX', KEYS[1], 'format', ARGV[1]) == 1 then
  return ARGV[1]
end
local f = redis.call('HGET', KEYS[1], 'format')
if f == ARGV[2] then
  redis.call('HSET', KEYS[1], 'format', ARGV[1])
  return ARGV[1]
end
return f
