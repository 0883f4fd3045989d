-- counts (prepended to every script that writes timers, after the fence): the per-topic counts of the stored timers,
-- a hash (topic -> count, a field only while it is above 0, plus the field '*paused': how many are paused; '*' is no
-- topic), and the names of the topics that have timers, a sorted set (all scores 0, so lex order = name order), kept
-- in the same script as the timers. A script adds its changes up with tc_add and applies them once with tc_apply:
-- one HINCRBY per topic it changed, not per timer. write_multi.lua runs several scripts in one call with one copy of
-- these functions: each section starts with tc_reset().
local tc_delta, tc_topics, tc_paused = {}, {}, 0
local function tc_reset()
  tc_delta, tc_topics, tc_paused = {}, {}, 0
end
-- the pause state, and the topic and the pause state, of a stored record or of a header (a record's first line);
-- the header is copied out only when ' p=1' occurs anywhere in the record (a paused timer, or a payload holding it)
local function tc_paused_in(rec)
  if not string.find(rec, ' p=1', 1, true) then
    return false
  end
  local nl = string.find(rec, '\n', 1, true)
  local h = nl and string.sub(rec, 1, nl - 1) or rec
  return string.find(h .. ' ', ' p=1 ', 1, true) ~= nil
end
local function tc_of(rec)
  return string.match(rec, '^%S+ %S+ %S+ (%S+)'), tc_paused_in(rec)
end
local function tc_add(topic, paused, d)
  local cur = tc_delta[topic]
  if cur == nil then
    tc_topics[#tc_topics + 1] = topic
    cur = 0
  end
  tc_delta[topic] = cur + d
  if paused then
    tc_paused = tc_paused + d
  end
end
-- one record replaced by another (old nil: created)
local function tc_replace(old, new)
  if old then
    local t, p = tc_of(old)
    tc_add(t, p, -1)
  end
  local t, p = tc_of(new)
  tc_add(t, p, 1)
end
-- one topic's count changed by d at once: the field removed and the name unlisted when it drops to 0, listed when it
-- rises from 0
local function tc_incr(counts, names, t, d)
  local n = redis.call('HINCRBY', counts, t, d)
  if n <= 0 then
    redis.call('HDEL', counts, t)
    redis.call('ZREM', names, t)
  elseif n - d <= 0 then
    redis.call('ZADD', names, 0, t)      -- listed while its count is above 0: only when it rises from 0
  end
end
local function tc_apply(counts, names)
  for i = 1, #tc_topics do
    local t = tc_topics[i]
    local d = tc_delta[t]
    if d ~= 0 then
      tc_incr(counts, names, t, d)
    end
  end
  if tc_paused ~= 0 then
    redis.call('HINCRBY', counts, '*paused', tc_paused)
  end
end
-- one stored record replaced at once (a lone write, without the tables): the old record's topic ot and pause state op
-- counted out, the new one's (nt nil: removed) counted in
local function tc_move(counts, names, ot, op, nt, np)
  if ot ~= nt then
    tc_incr(counts, names, ot, -1)
    if nt then
      tc_incr(counts, names, nt, 1)
    end
  end
  local dp = (np and 1 or 0) - (op and 1 or 0)
  if dp ~= 0 then
    redis.call('HINCRBY', counts, '*paused', dp)
  end
end
