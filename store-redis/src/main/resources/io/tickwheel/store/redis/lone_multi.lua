-- The small writes of several partitions in one call (a standalone Redis; on a Redis Cluster, partitions whose keys
-- share one hash slot), each section a lone create, a lone touch or a firing record of a few requests: what
-- write_multi.lua does with such sections, without their frame (a section's name, key and argument counts, its copied
-- KEYS and ARGV tables, the script table, the count tables), each applied as its script applies one timer. A cluster
-- node's usual turn: a timer or two in each of many partitions. Runs after counts.lua, fire_one.lua and sections.lua
-- (see Script.LONE_MULTI).
-- ARGV[1] = the number of sections; then per section the writer's lease epoch, its kind, and its arguments:
--   'c' (create_absent.lua of one timer): topic, paused ('1' or '0'), id, member, record;
--       KEYS: timers, due, counts, names (create_absent.lua's), then the partition's lease hash;
--   'u' (update.lua): id, expected generation, member, header (update.lua's ARGV);
--       KEYS: as for 'c';
--   a number n (fire.lua of n requests): its 7n arguments (fire.lua's ARGV);
--       KEYS: fire.lua's 9, then the partition's lease hash.
-- Order, fencing and the reply are write_multi.lua's: sections apply in list order, each fenced on its own (refused
-- having written nothing, the others apply); a flat array, per section its status ('OK', 'FENCED ...', 'ERR ...') and
-- then its script's reply (nil for nil or false): for 'c' the id when it was stored already, for 'u' the stored
-- payload segment when applied, for 'f' fire.lua's groups of 3 (status, topic, payload segment).
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local sections = tonumber(ARGV[1])
local res = {}
local leases = {}  -- see section_fence
-- a lone create: keys from KEYS[kb + 1], arguments from ARGV[a + 2]
local function create_section(kb, a)
  local id = ARGV[a + 4]
  if redis.call('HSETNX', KEYS[kb + 1], id, ARGV[a + 6]) == 0 then
    return {id}
  end
  redis.call('ZADD', KEYS[kb + 2], 0, ARGV[a + 5])
  tc_incr(KEYS[kb + 3], KEYS[kb + 4], ARGV[a + 2], 1)
  if ARGV[a + 3] == '1' then
    redis.call('HINCRBY', KEYS[kb + 3], '*paused', 1)
  end
  return false
end
-- a lone touch, as update.lua applies it: keys from KEYS[kb + 1], arguments from ARGV[a + 2]
local function update_section(kb, a)
  local timers, id = KEYS[kb + 1], ARGV[a + 2]
  local old = redis.call('HGET', timers, id)
  if not old then
    return false
  end
  local ogen, ohex = string.match(old, '^(%S+) %S+ (%S+) ')
  if ogen ~= ARGV[a + 3] then
    return false
  end
  local om, m, hdr = ohex .. id, ARGV[a + 4], ARGV[a + 5]
  if om ~= m then
    redis.call('ZREM', KEYS[kb + 2], om)
    redis.call('ZADD', KEYS[kb + 2], 0, m)
  end
  local nl = string.find(old, '\n', 1, true)
  redis.call('HSET', timers, id, hdr .. string.sub(old, nl))
  local ot, op = tc_of(old)
  local nt, np = tc_of(hdr)
  tc_move(KEYS[kb + 3], KEYS[kb + 4], ot, op, nt, np)
  return string.sub(old, nl + 1)
end
-- a firing record: its requests, keys from KEYS[kb + 1], n then the arguments from ARGV[a + 1]
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
  local tag = ARGV[a + 1]
  local run, k, n
  if tag == 'c' then
    run, k, n = create_section, 4, 5
  elseif tag == 'u' then
    run, k, n = update_section, 4, 4
  else
    n = tonumber(tag)
    if not n then
      -- the rest of the call cannot be read: this section and the ones after it fail, having written nothing
      for r = s, sections do
        res[2 * r - 1] = 'ERR no section kind ' .. tostring(tag) .. ' in lone_multi'
        res[2 * r] = false
      end
      return res
    end
    run, k, n = fire_section, 9, 7 * n
  end
  local status, reply = section_fence(leases, KEYS[kb + k + 1], ARGV[a], now), false
  if not status then
    status, reply = section_run(run, kb, a)
  end
  res[2 * s - 1] = status
  res[2 * s] = reply
  a = a + 2 + n
  kb = kb + k + 1
end
return res
