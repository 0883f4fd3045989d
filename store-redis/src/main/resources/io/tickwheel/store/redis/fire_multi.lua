-- The firing records of several partitions in one call, a few requests each (a standalone Redis; on a Redis Cluster,
-- partitions whose keys share one hash slot): write_multi.lua for a call whose sections are all lone firing records
-- (lone_fire.lua), without its table of section scripts, which such a call does not use. A cluster node's
-- usual firing turn: a firing or two in each of many partitions. Runs after counts.lua, fire_one.lua, lone_fire.lua
-- and sections.lua (see Script.FIRE_MULTI).
-- ARGV[1] = the number of sections; then per section: n (its requests), the writer's lease epoch, then its 7n
-- arguments (as fire.lua's ARGV). KEYS: per section fire.lua's 9 keys, then the partition's lease hash.
-- Order, fencing and the reply are write_multi.lua's: sections apply in list order, each fenced on its own (refused
-- having written nothing, the others apply); a flat array, per section its status ('OK', 'FENCED ...', 'ERR ...')
-- and then fire.lua's reply for its requests (groups of 3: status, topic, payload segment), or nil.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local sections = tonumber(ARGV[1])
local res = {}
local leases = {}  -- see section_fence
local a, kb = 2, 0
for s = 1, sections do
  local status, reply = section_fence(leases, KEYS[kb + 10], ARGV[a + 1], now), false
  if not status then
    status, reply = section_run(lone_fire, kb, a)
  end
  res[2 * s - 1] = status
  res[2 * s] = reply
  a = a + 2 + 7 * tonumber(ARGV[a])
  kb = kb + 10
end
return res
