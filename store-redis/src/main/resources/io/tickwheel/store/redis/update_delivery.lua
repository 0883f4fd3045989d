-- updateDelivery: replaces a stored delivery record and moves its seq to the zset of its new state.
-- KEYS[1] deliveries hash, KEYS[2] pending zset, KEYS[3] succeeded zset, KEYS[4] dead zset.
-- ARGV[1] seq, ARGV[2] new state index (0 pending, 1 succeeded, 2 dead), ARGV[3] the record.
-- Returns 1 when stored (and replaced), 0 when there is no such delivery (nothing is created).
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
for i = 2, 4 do
  redis.call('ZREM', KEYS[i], ARGV[1])
end
redis.call('ZADD', KEYS[2 + tonumber(ARGV[2])], ARGV[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
