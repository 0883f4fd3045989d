-- The fenced writes of several partition stores in one call (a standalone Redis; on a Redis Cluster, partitions whose
-- keys share one hash slot). Runs after counts.lua, fire_one.lua, update_one.lua, create_group.lua, lone.lua,
-- lone_fire.lua, sections.lua and the bodies of the scripts it can run, each wrapped as a function of (KEYS, ARGV) that
-- starts with tc_reset(), and the table write_one of them by name (see Script.WRITE_MULTI).
-- ARGV[1] = the number of sections; then per section either
--   a lone section (lone.lua, lone_fire.lua): its tag ('c' a create of one timer, 'g' a create of one topic's timers,
--   'u' a touch, a number n a firing record of n requests), the writer's lease epoch, then its arguments; KEYS: its
--   keys (as its function says), then the partition's lease hash; or
--   its script's name, the writer's lease epoch, k (its keys), n (its args), then the n args (as the script's ARGV);
--   KEYS: its k keys (as the script's KEYS), then the partition's lease hash.
-- Sections apply in list order, one after the other (two sections of one partition: the later sees what the
-- earlier left). Each is fenced on its own, exactly as fence.lua fences a single call: unless its lease's epoch is
-- that epoch and the lease has not expired by Redis TIME, it is refused having written nothing, and the others apply.
-- Returns a flat array, two elements per section: its status, then its reply: 'OK' and its script's reply (nil for
-- nil or false); 'FENCED ...' and nil; 'ERR ...' and nil when its section failed (a script error: what it wrote before
-- the error stays written). Flat, because Redis converts every table of a reply with several field lookups.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local sections = tonumber(ARGV[1])
local res = {}
local leases = {}  -- see section_fence
local a = 2
local kb = 0
for s = 1, sections do
  local tag, epoch = ARGV[a], ARGV[a + 1]
  local status, reply = false, false
  local lone, k, n
  if tag == 'c' then
    lone, k, n = lone_create, 4, 5
  elseif tag == 'g' then
    lone, k, n = lone_group, 4, 3 + 5 * tonumber(ARGV[a + 4])
  elseif tag == 'u' then
    lone, k, n = lone_update, 4, 4
  else
    n = tonumber(tag)
    if n then
      lone, k, n = lone_fire, 9, 7 * n
    end
  end
  if lone then
    status = section_fence(leases, KEYS[kb + k + 1], epoch, now)
    if not status then
      status, reply = section_run(lone, kb, a)
    end
    a = a + 2 + n
    kb = kb + k + 1
  else
    k, n = tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
    a = a + 4
    local keys = {unpack(KEYS, kb + 1, kb + k)}
    local lease = KEYS[kb + k + 1]
    kb = kb + k + 1
    local args = {unpack(ARGV, a, a + math.min(n, 4000) - 1)}  -- in C, inside Lua's C stack limit (8,000 values)
    for i = 4001, n do
      args[i] = ARGV[a + i - 1]
    end
    a = a + n
    local run = write_one[tag]
    status = section_fence(leases, lease, epoch, now)
    if status then
      -- refused by its fence, having written nothing
    elseif not run then
      status = 'ERR no script ' .. tostring(tag) .. ' in write_multi'
    else
      status, reply = section_run(run, keys, args)
    end
  end
  res[2 * s - 1] = status
  res[2 * s] = reply
end
return res
