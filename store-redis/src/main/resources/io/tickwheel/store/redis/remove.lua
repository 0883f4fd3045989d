-- remove: delete a timer and its index entry. KEYS[1] timers hash, KEYS[2] due index, KEYS[3] and KEYS[4]
-- the counts (counts.lua). ARGV: id.
-- Returns 1 if it existed, else 0.
local timers, due = KEYS[1], KEYS[2]
local id = ARGV[1]
local old = redis.call('HGET', timers, id)
if not old then
  return 0
end
redis.call('HDEL', timers, id)
redis.call('ZREM', due, string.match(old, '^%S+ %S+ (%S+) ') .. id)
local t, p = tc_of(old)
tc_add(t, p, -1)
tc_apply(KEYS[3], KEYS[4])
return 1
