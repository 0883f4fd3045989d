-- put / putAll: create or replace timers, keeping the due index and the per-topic index in step.
-- KEYS[1] timers hash (id -> record), KEYS[2] due index (lex zset "DUEHEX..ID"; per-topic index is KEYS[2]..':'..topic)
-- ARGV: groups of 4 (id, member, topic, record). Returns how many were written.
local timers, due = KEYS[1], KEYS[2]
for i = 1, #ARGV, 4 do
  local id, m, topic, rec = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  local old = redis.call('HGET', timers, id)
  local om, otopic = nil, nil
  if old then
    local ohex, ot = string.match(old, '^%S+ %S+ (%S+) (%S+) ')
    om, otopic = ohex .. id, ot
  end
  if om ~= m or otopic ~= topic then
    if om then
      redis.call('ZREM', due, om)
      redis.call('ZREM', due .. ':' .. otopic, om)
    end
    redis.call('ZADD', due, 0, m)
    redis.call('ZADD', due .. ':' .. topic, 0, m)
  end
  redis.call('HSET', timers, id, rec)
end
return #ARGV / 4
