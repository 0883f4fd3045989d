-- The firing records of several partitions in one call, a few requests each (a standalone Redis; on a Redis Cluster,
-- partitions whose keys share one hash slot): what write_multi.lua does with such 'fire' sections, without their
-- frame (a section's name, key and argument counts, its copied KEYS and ARGV tables, the script table), each request
-- as fire.lua applies a lone one (fire_one.lua), one after the other, as fire.lua applies several. A cluster node's
-- usual turn: a firing or two in each of many partitions. Runs after counts.lua, fire_one.lua and sections.lua (see
-- Script.FIRE_MULTI).
-- ARGV[1] = the number of sections; then per section: the writer's lease epoch, n (its requests), then its 7n
-- arguments (as fire.lua's ARGV). KEYS: per section fire.lua's 9 keys, then the partition's lease hash.
-- Order, fencing and the reply are write_multi.lua's: sections apply in list order, each fenced on its own (refused
-- having written nothing, the others apply); a flat array, per section its status ('OK', 'FENCED ...', 'ERR ...')
-- and then fire.lua's reply for its requests (groups of 3: status, topic, payload segment), or nil.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local sections = tonumber(ARGV[1])
local res = {}
local leases = {}  -- see section_fence
-- one section: its requests, keys from KEYS[kb + 1], n then the arguments from ARGV[a + 1]
local function fire_section(kb, a)
  local n = tonumber(ARGV[a + 1])
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
local a, kb = 2, 0
for s = 1, sections do
  local status, reply = section_fence(leases, KEYS[kb + 10], ARGV[a], now), false
  if not status then
    status, reply = section_run(fire_section, kb, a)
  end
  res[2 * s - 1] = status
  res[2 * s] = reply
  a = a + 2 + 7 * tonumber(ARGV[a + 1])
  kb = kb + 10
end
return res
