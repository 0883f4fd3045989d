-- lone_fire (after counts.lua and fire_one.lua, before write_multi.lua and fire_multi.lua): the lone firing record,
-- tag n (fire.lua of n requests, applied one after the other as fire.lua applies a lone one), apart from lone.lua so
-- that fire_multi.lua, which runs no other lone section, defines no other. Takes kb and a as lone.lua's functions do;
-- the 7n arguments; KEYS: fire.lua's 9. Returns fire.lua's reply (groups of 3: status, topic, payload segment).
local function lone_fire(kb, a)
  local n = tonumber(ARGV[a])
  local out = {}
  for i = 0, n - 1 do
    local r = fire_one(KEYS[kb + 1], KEYS[kb + 2], KEYS[kb + 3], KEYS[kb + 4], KEYS[kb + 5], KEYS[kb + 6], KEYS[kb + 7],
      KEYS[kb + 8], KEYS[kb + 9], ARGV, a + 1 + 7 * i)
    if n == 1 or r.err then
      return r    -- an error: the seq counter is not a number, refused at the first request, nothing written
    end
    out[3 * i + 1], out[3 * i + 2], out[3 * i + 3] = r[1], r[2], r[3]
  end
  return out
end
