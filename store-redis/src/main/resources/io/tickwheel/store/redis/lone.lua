-- lone (after counts.lua, update_one.lua and create_group.lua, before write_multi.lua): the sections write_multi.lua
-- applies without a section's frame (its name, key and argument counts, its copied KEYS and ARGV tables, the script
-- table, the count tables), each as its script applies it: a create of one timer or of one topic's timers, a touch
-- (and a firing record of a few requests, lone_fire.lua). A cluster node's usual turn holds a timer or two in each of
-- many partitions. Each function takes kb (its keys are KEYS[kb + 1 ..]) and a (its tag is ARGV[a], its epoch
-- ARGV[a + 1], its arguments follow) and returns its script's reply, or an error reply having written nothing.
-- lone_create, tag 'c' (create_absent.lua of one timer): topic, paused ('1' or '0'), id, member, record; KEYS: timers,
-- due, counts, names. Returns {id} when the id is stored already (nothing written), else false.
local function lone_create(kb, a)
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
-- lone_group, tag 'g' (create_absent.lua of one group, one topic and pause state): its ARGV after the group count
-- (topic, paused, k, the chunks); KEYS as lone_create's. Returns the ids stored already (not written), or false.
local function lone_group(kb, a)
  local found = {}
  local topic, paused, created = create_group(KEYS[kb + 1], KEYS[kb + 2], ARGV, a + 2, found)
  if created > 0 then
    tc_incr(KEYS[kb + 3], KEYS[kb + 4], topic, created)
    if paused then
      redis.call('HINCRBY', KEYS[kb + 3], '*paused', created)
    end
  end
  if #found == 0 then
    return false
  end
  return found
end
-- lone_update, tag 'u' (update.lua, a touch, as update_one.lua applies it): id, expected generation, member,
-- header; KEYS as lone_create's. Returns the stored payload segment when applied, false when the id is absent or of
-- another generation (nothing written).
local function lone_update(kb, a)
  return update_one(KEYS[kb + 1], KEYS[kb + 2], KEYS[kb + 3], KEYS[kb + 4], ARGV, a + 1)
end
