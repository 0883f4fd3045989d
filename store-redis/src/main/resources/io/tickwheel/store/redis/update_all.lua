-- updateAll (batch touch): per item, replace a timer's schedule only if its stored generation is the expected one,
-- keeping the stored payload (update.lua for many timers, in one atomic call).
-- KEYS[1] timers hash, KEYS[2] due index, KEYS[3] and KEYS[4] the counts (counts.lua). ARGV: groups of 4 (id, expectedGeneration, member, header); ids distinct.
-- Returns one element per item: the stored payload segment (N, or P and the payload) when applied, false when absent
-- or another generation (nothing written for that item).
-- Variadic commands per chunk (one HMGET, ZREM, ZADD, HSET for up to CHUNK timers), as in put.lua: distinct ids have
-- distinct members, so removing every replaced member before adding the new ones equals doing it item by item.
local timers, due = KEYS[1], KEYS[2]
local n = #ARGV / 4
local out = {}
local CHUNK = 1000
for base = 0, n - 1, CHUNK do
  local last = math.min(n, base + CHUNK) - 1
  local ids = {}
  for k = base, last do
    ids[#ids + 1] = ARGV[4 * k + 1]
  end
  local olds = redis.call('HMGET', timers, unpack(ids))
  local rem, add, set = {}, {}, {}
  for j = 1, #ids do
    local k = 4 * (base + j - 1)
    local id, m = ids[j], ARGV[k + 3]
    local old = olds[j]
    local ogen, ohex
    if old then
      ogen, ohex = string.match(old, '^(%S+) %S+ (%S+) ')
    end
    if old and ogen == ARGV[k + 2] then
      local om = ohex .. id
      if om ~= m then
        rem[#rem + 1] = om
        add[#add + 1] = 0
        add[#add + 1] = m
      end
      local nl = string.find(old, '\n', 1, true)
      set[#set + 1] = id
      set[#set + 1] = ARGV[k + 4] .. string.sub(old, nl)
      tc_replace(old, ARGV[k + 4])
      out[base + j] = string.sub(old, nl + 1)
    else
      out[base + j] = false
    end
  end
  if #rem > 0 then
    redis.call('ZREM', due, unpack(rem))
  end
  if #add > 0 then
    redis.call('ZADD', due, unpack(add))
  end
  if #set > 0 then
    redis.call('HSET', timers, unpack(set))
  end
end
tc_apply(KEYS[3], KEYS[4])
return out
