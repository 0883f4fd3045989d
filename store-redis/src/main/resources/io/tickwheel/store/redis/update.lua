-- update (touch): replace a timer's schedule only if its stored generation is the expected one; keeps the stored payload.
-- KEYS[1] timers hash, KEYS[2] due index, KEYS[3] and KEYS[4] the counts (counts.lua). ARGV: id, expectedGeneration, member, header (record without "\n"+payload).
-- Returns the stored payload segment (what follows the header's newline: N, or P and the payload) when applied,
-- nil when absent or another generation (nothing written).
local timers, due = KEYS[1], KEYS[2]
local id = ARGV[1]
local old = redis.call('HGET', timers, id)
if not old then
  return false
end
local ogen, ohex = string.match(old, '^(%S+) %S+ (%S+) ')
if ogen ~= ARGV[2] then
  return false
end
local om, m = ohex .. id, ARGV[3]
if om ~= m then
  redis.call('ZREM', due, om)
  redis.call('ZADD', due, 0, m)
end
local nl = string.find(old, '\n', 1, true)
redis.call('HSET', timers, id, ARGV[4] .. string.sub(old, nl))
tc_replace(old, ARGV[4])
tc_apply(KEYS[3], KEYS[4])
return string.sub(old, nl + 1)
