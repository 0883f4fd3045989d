-- createAbsent: create the timers whose ids are not stored, leave the stored ones as they are.
-- KEYS[1] timers hash (id -> record), KEYS[2] due index (zset, all scores 0, member "DUEHEX..ID"),
-- KEYS[3] per-topic counts hash, KEYS[4] topic names zset (see counts.lua, prepended).
-- ARGV: G, then G groups, one per (topic, paused) of the timers: topic, paused ("1" or "0"), k (how many timers),
-- then the k timers in chunks of c = min(k - done, 1000): c ids, then c pairs (0, member), then c pairs (id, record).
-- The ids are distinct (the store checks before the call). Returns the ids that were stored already (not written), or
-- false (nil to the caller) when there are none: an empty table would cost Redis a reply conversion.
-- The caller lays the arguments out as the commands take them (create_group.lua, prepended, writes a group), and the
-- counts are one add per group rather than a parse of every record.
local timers, due = KEYS[1], KEYS[2]
if ARGV[1] == '1' and ARGV[4] == '1' then
  -- one timer (ARGV: 1, topic, paused, 1, id, 0, member, id, record): HSETNX checks and writes the record at once
  if redis.call('HSETNX', timers, ARGV[5], ARGV[9]) == 0 then
    return {ARGV[5]}
  end
  redis.call('ZADD', due, 0, ARGV[7])
  tc_add(ARGV[2], ARGV[3] == '1', 1)
  tc_apply(KEYS[3], KEYS[4])
  return false
end
local found = {}
local at = 2
for _ = 1, tonumber(ARGV[1]) do
  local topic, paused, created
  topic, paused, created, at = create_group(timers, due, ARGV, at, found)
  if created > 0 then
    tc_add(topic, paused, created)
  end
end
tc_apply(KEYS[3], KEYS[4])
if #found == 0 then
  return false
end
return found
