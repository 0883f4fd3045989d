-- createAbsent of many timers on an unfenced store, step 1 of 3 of one MULTI (see RedisTimers#createAbsent): keeps
-- the records of the ids that are stored already, so that step 2, a plain HSET of every record, can be undone for
-- them by step 3 (create_absent_index.lua).
-- KEYS[1] timers hash (id -> record), KEYS[2] keep hash (id -> the stored record; empty outside the MULTI).
-- ARGV: the ids (distinct). Returns how many were stored already.
local timers, keep = KEYS[1], KEYS[2]
local CHUNK = 1000
redis.call('DEL', keep)
local n = 0
for base = 1, #ARGV, CHUNK do
  local last = math.min(#ARGV, base + CHUNK - 1)
  local olds = redis.call('HMGET', timers, unpack(ARGV, base, last))
  for j = 1, last - base + 1 do
    if olds[j] then
      redis.call('HSET', keep, ARGV[base + j - 1], olds[j])
      n = n + 1
    end
  end
end
return n
