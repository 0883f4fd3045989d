-- update_one (after counts.lua, before update.lua and lone.lua): a touch of one timer, as update.lua describes it:
-- replace its schedule only if its stored generation is the expected one, keeping the stored payload, and apply its
-- topic count change at once (tc_move). timers, due, counts, names: update.lua's KEYS; A[o + 1 .. o + 4]: its ARGV
-- (id, expected generation, member, header).
-- Returns the stored payload segment when applied, false when the id is absent or of another generation (nothing
-- written).
local function update_one(timers, due, counts, names, A, o)
  local id = A[o + 1]
  local old = redis.call('HGET', timers, id)
  if not old then
    return false
  end
  local ogen, ohex = string.match(old, '^(%S+) %S+ (%S+) ')
  if ogen ~= A[o + 2] then
    return false
  end
  local om, m, hdr = ohex .. id, A[o + 3], A[o + 4]
  if om ~= m then
    redis.call('ZREM', due, om)
    redis.call('ZADD', due, 0, m)
  end
  local nl = string.find(old, '\n', 1, true)
  redis.call('HSET', timers, id, hdr .. string.sub(old, nl))
  local ot, op = tc_of(old)
  local nt, np = tc_of(hdr)
  tc_move(counts, names, ot, op, nt, np)
  return string.sub(old, nl + 1)
end
