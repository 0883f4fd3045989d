-- release: end a lease now (hand-over) if the caller holds it with this epoch; keeps holder and epoch, so the next
-- epoch still grows. KEYS[1] the partition's lease hash. ARGV: node id, epoch. Returns 1 if released, else 0.
local l = redis.call('HMGET', KEYS[1], 'node', 'epoch')
if l[1] ~= ARGV[1] or l[2] ~= ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[1], 'exp', '0')
return 1
