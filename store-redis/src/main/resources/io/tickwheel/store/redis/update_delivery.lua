-- updateDelivery: replaces a stored delivery record and moves its seq to the zset of its new state, if the stored one
-- is in the expected state (a compare-and-set: of concurrent re-queues of one dead delivery, one succeeds).
-- KEYS[1] deliveries hash, KEYS[2] pending zset, KEYS[3] succeeded zset, KEYS[4] dead zset.
-- ARGV[1] seq, ARGV[2] new state index (0 pending, 1 succeeded, 2 dead), ARGV[3] the record, ARGV[4] the expected
-- state index, or -1 (or absent): any.
-- Returns 1 when stored in that state (and replaced), 0 when there is no such delivery or it is in another state
-- (nothing is created or changed).
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
local expected = tonumber(ARGV[4] or '-1')
if expected >= 0 and not redis.call('ZSCORE', KEYS[2 + expected], ARGV[1]) then
  return 0
end
for i = 2, 4 do
  redis.call('ZREM', KEYS[i], ARGV[1])
end
redis.call('ZADD', KEYS[2 + tonumber(ARGV[2])], ARGV[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
