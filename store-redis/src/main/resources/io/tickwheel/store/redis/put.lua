-- put / putAll: create or replace timers, keeping the due index in step.
-- KEYS[1] timers hash (id -> record), KEYS[2] due index (zset, all scores 0, member "DUEHEX..ID": lex order = due, id)
-- ARGV: groups of 3 (id, member, record). Returns how many were written.
local timers, due = KEYS[1], KEYS[2]
for i = 1, #ARGV, 3 do
  local id, m = ARGV[i], ARGV[i + 1]
  local old = redis.call('HGET', timers, id)
  local om = nil
  if old then
    om = string.match(old, '^%S+ %S+ (%S+) ') .. id
  end
  if om ~= m then
    if om then
      redis.call('ZREM', due, om)
    end
    redis.call('ZADD', due, 0, m)
  end
  redis.call('HSET', timers, id, ARGV[i + 2])
end
return #ARGV / 3
