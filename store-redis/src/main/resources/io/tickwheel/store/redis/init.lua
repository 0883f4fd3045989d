-- init: stamp (or check) the data format of this key prefix. KEYS[1] meta hash. ARGV: format version.
-- Returns the stored format version.
if redis.call('HSETNX', KEYS[1], 'format', ARGV[1]) == 1 then
  return ARGV[1]
end
return redis.call('HGET', KEYS[1], 'format')
