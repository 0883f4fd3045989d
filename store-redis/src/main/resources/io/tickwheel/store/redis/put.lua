-- put / putAll: create or replace timers, keeping the due index in step.
-- KEYS[1] timers hash (id -> record), KEYS[2] due index (zset, all scores 0, member "DUEHEX..ID": lex order = due, id),
-- KEYS[3] per-topic counts hash, KEYS[4] topic names zset (see counts.lua, prepended).
-- ARGV: groups of 3 (id, member, record); the ids are distinct (the store drops earlier duplicates before the call).
-- Returns how many were written.
-- Variadic commands per chunk (one HMGET, ZREM, ZADD, HSET for up to CHUNK timers) instead of three redis.call per
-- timer: each redis.call costs about a microsecond of Redis CPU by itself. Distinct ids have distinct members, so
-- removing every replaced member before adding the new ones equals doing it timer by timer. CHUNK keeps unpack()
-- well inside Lua's C stack limit (8,000 values).
local timers, due = KEYS[1], KEYS[2]
local n = #ARGV / 3
if n == 1 then
  -- a single put: plain commands, no tables or unpack (cheaper for one timer)
  local id, m = ARGV[1], ARGV[2]
  local old = redis.call('HGET', timers, id)
  local om = old and (string.match(old, '^%S+ %S+ (%S+) ') .. id)
  if om ~= m then
    if om then
      redis.call('ZREM', due, om)
    end
    redis.call('ZADD', due, 0, m)
  end
  redis.call('HSET', timers, id, ARGV[3])
  tc_replace(old, ARGV[3])
  tc_apply(KEYS[3], KEYS[4])
  return 1
end
local CHUNK = 1000
for base = 0, n - 1, CHUNK do
  local last = math.min(n, base + CHUNK) - 1
  local ids = {}
  for k = base, last do
    ids[#ids + 1] = ARGV[3 * k + 1]
  end
  local olds = redis.call('HMGET', timers, unpack(ids))
  local rem, add, set = {}, {}, {}
  for j = 1, #ids do
    local k = 3 * (base + j - 1)
    local id, m = ids[j], ARGV[k + 2]
    local old = olds[j]
    if old then
      local om = string.match(old, '^%S+ %S+ (%S+) ') .. id
      if om ~= m then
        rem[#rem + 1] = om
        add[#add + 1] = 0
        add[#add + 1] = m
      end
    else
      add[#add + 1] = 0
      add[#add + 1] = m
    end
    set[#set + 1] = id
    set[#set + 1] = ARGV[k + 3]
    tc_replace(old, ARGV[k + 3])
  end
  if #rem > 0 then
    redis.call('ZREM', due, unpack(rem))
  end
  if #add > 0 then
    redis.call('ZADD', due, unpack(add))
  end
  redis.call('HSET', timers, unpack(set))
end
tc_apply(KEYS[3], KEYS[4])
return n
