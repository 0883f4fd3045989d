-- createAbsent: create the timers whose ids are not stored, leave the stored ones as they are.
-- KEYS[1] timers hash (id -> record), KEYS[2] due index (zset, all scores 0, member "DUEHEX..ID"),
-- KEYS[3] per-topic counts hash, KEYS[4] topic names zset (see counts.lua, prepended).
-- ARGV: groups of 3 (id, member, record); the ids are distinct (the store checks before the call).
-- Returns the ids that were stored already (not written), in ARGV order.
-- Variadic commands per chunk (one HMGET, ZADD, HSET for up to CHUNK timers), as put.lua.
local timers, due = KEYS[1], KEYS[2]
local n = #ARGV / 3
local found = {}
local CHUNK = 1000
for base = 0, n - 1, CHUNK do
  local last = math.min(n, base + CHUNK) - 1
  local ids = {}
  for k = base, last do
    ids[#ids + 1] = ARGV[3 * k + 1]
  end
  local olds = redis.call('HMGET', timers, unpack(ids))
  local add, set = {}, {}
  for j = 1, #ids do
    local k = 3 * (base + j - 1)
    if olds[j] then
      found[#found + 1] = ids[j]
    else
      add[#add + 1] = 0
      add[#add + 1] = ARGV[k + 2]
      set[#set + 1] = ids[j]
      set[#set + 1] = ARGV[k + 3]
      tc_replace(nil, ARGV[k + 3])
    end
  end
  if #add > 0 then
    redis.call('ZADD', due, unpack(add))
    redis.call('HSET', timers, unpack(set))
  end
end
tc_apply(KEYS[3], KEYS[4])
return found
