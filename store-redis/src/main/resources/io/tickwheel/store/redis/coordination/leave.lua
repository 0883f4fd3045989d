-- leave: remove a node's membership at once, unless another (known) instance is the member.
-- KEYS[1] the members hash, KEYS[2] the member instances hash. ARGV: node id, instance ('' for none).
-- Returns 1 if removed, 0 if another instance is the member.
local id, inst = ARGV[1], ARGV[2]
local other = redis.call('HGET', KEYS[2], id)
if other and other ~= '' and inst ~= '' and other ~= inst then
  return 0
end
redis.call('HDEL', KEYS[1], id)
redis.call('HDEL', KEYS[2], id)
return 1
