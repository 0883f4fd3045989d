-- createAbsent of many timers on an unfenced store, step 3 of 3 of one MULTI (see RedisTimers#createAbsent): after
-- step 2 wrote every record, puts back the records step 1 kept (the ids stored already, which stay as they were),
-- and indexes and counts the others.
-- KEYS[1] timers hash, KEYS[2] due index (zset, all scores 0, member "DUEHEX..ID"), KEYS[3] per-topic counts hash,
-- KEYS[4] topic names zset (see counts.lua, prepended), KEYS[5] keep hash (step 1's; deleted here).
-- ARGV: G, then G groups, one per (topic, paused) of the timers: topic, paused ("1" or "0"), k, then k pairs
-- (0, member), as ZADD takes them. Returns the ids that were stored already (not written).
local timers, due, keep = KEYS[1], KEYS[2], KEYS[5]
local CHUNK = 1000
local kept = nil
if redis.call('EXISTS', keep) == 1 then
  kept = {}
  local kv = redis.call('HGETALL', keep)
  for j = 1, #kv, 2 do
    kept[kv[j]] = kv[j + 1]
  end
  redis.call('DEL', keep)
end
local found = {}
local at = 2
for _ = 1, tonumber(ARGV[1]) do
  local topic, paused, k = ARGV[at], ARGV[at + 1] == '1', tonumber(ARGV[at + 2])
  at = at + 3
  local created = 0
  for base = 0, k - 1, CHUNK do
    local c = math.min(k - base, CHUNK)
    if kept == nil then
      redis.call('ZADD', due, unpack(ARGV, at, at + 2 * c - 1))
      created = created + c
    else
      local add, back = {}, {}
      for j = 0, c - 1 do
        local m = ARGV[at + 2 * j + 1]
        local id = string.sub(m, 17)
        local old = kept[id]
        if old then
          found[#found + 1] = id
          back[#back + 1] = id
          back[#back + 1] = old
        else
          add[#add + 1] = 0
          add[#add + 1] = m
          created = created + 1
        end
      end
      if #add > 0 then
        redis.call('ZADD', due, unpack(add))
      end
      if #back > 0 then
        redis.call('HSET', timers, unpack(back))
      end
    end
    at = at + 2 * c
  end
  if created > 0 then
    tc_add(topic, paused, created)
  end
end
tc_apply(KEYS[3], KEYS[4])
return found
