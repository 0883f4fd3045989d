-- createAbsent: create the timers whose ids are not stored, leave the stored ones as they are.
-- KEYS[1] timers hash (id -> record), KEYS[2] due index (zset, all scores 0, member "DUEHEX..ID"),
-- KEYS[3] per-topic counts hash, KEYS[4] topic names zset (see counts.lua, prepended).
-- ARGV: G, then G groups, one per (topic, paused) of the timers: topic, paused ("1" or "0"), k (how many timers),
-- then the k timers in chunks of c = min(k - done, CHUNK): c ids, then c pairs (0, member), then c pairs (id, record).
-- The ids are distinct (the store checks before the call). Returns the ids that were stored already (not written), or
-- false (nil to the caller) when there are none: an empty table would cost Redis a reply conversion.
-- The caller lays the arguments out as the commands take them, so a chunk whose ids are all absent (the usual case)
-- is one HMGET, one ZADD and one HSET straight from ARGV ranges: no per-timer Lua work, and the counts are one add per
-- group rather than a parse of every record. CHUNK keeps unpack() inside Lua's C stack limit (8,000 values).
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
local CHUNK = 1000
local found = {}
local at = 2
for _ = 1, tonumber(ARGV[1]) do
  local topic, paused, k = ARGV[at], ARGV[at + 1] == '1', tonumber(ARGV[at + 2])
  at = at + 3
  local created = 0
  for base = 0, k - 1, CHUNK do
    local c = math.min(k - base, CHUNK)
    local z, h = at + c, at + 3 * c
    local olds = redis.call('HMGET', timers, unpack(ARGV, at, z - 1))
    local any = false
    for j = 1, c do
      if olds[j] then
        any = true
        break
      end
    end
    if not any then
      redis.call('ZADD', due, unpack(ARGV, z, h - 1))
      redis.call('HSET', timers, unpack(ARGV, h, h + 2 * c - 1))
      created = created + c
    else
      local add, set = {}, {}
      for j = 1, c do
        if olds[j] then
          found[#found + 1] = ARGV[at + j - 1]
        else
          add[#add + 1] = 0
          add[#add + 1] = ARGV[z + 2 * j - 1]
          set[#set + 1] = ARGV[h + 2 * j - 2]
          set[#set + 1] = ARGV[h + 2 * j - 1]
          created = created + 1
        end
      end
      if #add > 0 then
        redis.call('ZADD', due, unpack(add))
        redis.call('HSET', timers, unpack(set))
      end
    end
    at = h + 2 * c
  end
  if created > 0 then
    tc_add(topic, paused, created)
  end
end
tc_apply(KEYS[3], KEYS[4])
if #found == 0 then
  return false
end
return found
