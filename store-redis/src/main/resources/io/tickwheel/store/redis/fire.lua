-- recordFirings: for each request, if the timer still has the expected generation and firing count,
-- append its firing to the log (seq = the counter + 1, stream id "<seq>-0") and advance or remove the timer.
-- A stale request writes nothing and consumes no seq. Requests apply in list order, as if one by one: a later
-- request for the same id sees what an earlier one left.
-- KEYS[1] timers hash, KEYS[2] due index, KEYS[3] seq counter, KEYS[4] firing log stream,
-- KEYS[5] deliveries hash, KEYS[6] pending deliveries zset, KEYS[7] all deliveries zset, KEYS[8] and KEYS[9] the
-- per-topic counts (counts.lua, prepended).
-- ARGV: groups of 7 (id, generation, firingsBefore, firingMeta or '' for no log entry,
--                    next member or '' to remove, next header, delivery template or '' for no callback).
-- A next header "+GEN FIRINGS DUEHEX" (a re-armed timer whose other header fields are unchanged) keeps the rest of
-- the stored header (from TOPIC on) as it is: the caller does not send a periodic timer's calendar on every firing.
-- A fired request with a delivery template also records its pending delivery (callbacks), in this same script:
-- deliveries[seq] = "N\n" .. template .. "\n" .. topic .. "\n" .. payload segment, seq in both zsets (score seq).
-- Returns groups of 3: status (0 stale, -1 applied without a firing, else the seq), topic, payload segment.
-- Cost: per firing one XADD; the rest is variadic per chunk of CHUNK requests (one HMGET of the ids not seen yet)
-- and per script (one GET/SET of the counter, one HDEL, ZREM, ZADD, HSET per CHUNK final states), instead of
-- five redis.call per request. The timers are written after every XADD succeeded.
local timers, due, seqk, log = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local CHUNK = 1000
local dlv, dpend, dall = KEYS[5], KEYS[6], KEYS[7]
local n = #ARGV / 7
if n == 1 then
  -- one request (a cluster partition's usual share of a turn): fire_one.lua, without the batch's tables
  return fire_one(timers, due, seqk, log, dlv, dpend, dall, KEYS[8], KEYS[9], ARGV, 0)
end
local cur = redis.call('GET', seqk)
local seq = 0
if cur then
  seq = tonumber(cur)
  if not seq then
    return redis.error_reply('ERR seq counter ' .. seqk .. ' is not a number')
  end
end
local seq0 = seq
-- per id touched: {gen, fir, hex, topic, ps, om (stored member), hdr (new header or nil), gone (removed),
--                  listed (in touched), cur (the current header, from the stored value's start),
--                  the stored record (to count it out)}
local state, touched = {}, {}
local out = {}
for base = 0, n - 1, CHUNK do
  local last = math.min(n, base + CHUNK) - 1
  local ids = {}
  for k = base, last do
    local id = ARGV[7 * k + 1]
    if state[id] == nil then
      state[id] = false
      ids[#ids + 1] = id
    end
  end
  if #ids > 0 then
    local olds = redis.call('HMGET', timers, unpack(ids))
    for j = 1, #ids do
      local old = olds[j]
      if old then
        local g, f, h, t = string.match(old, '^(%S+) (%S+) (%S+) (%S+) ')
        local nl = string.find(old, '\n', 1, true)
        state[ids[j]] = {g, f, h, t, string.sub(old, nl + 1), h .. ids[j], nil, false, nil, old, old}
      end
    end
  end
  for k = base, last do
    local a = 7 * k
    local id = ARGV[a + 1]
    local s = state[id]
    local st, topic, pseg = 0, '', ''
    if s and not s[8] and s[1] == ARGV[a + 2] and s[2] == ARGV[a + 3] then
      if ARGV[a + 4] ~= '' then
        seq = seq + 1
        redis.call('XADD', log, string.format('%d-0', seq), 'f', ARGV[a + 4], 't', s[4], 'p', s[5])
        st, topic, pseg = seq, s[4], s[5]
        if ARGV[a + 7] ~= '' then
          redis.call('HSET', dlv, seq, 'N\n' .. ARGV[a + 7] .. '\n' .. s[4] .. '\n' .. s[5])
          redis.call('ZADD', dpend, seq, seq)
          redis.call('ZADD', dall, seq, seq)
        end
      else
        st = -1
      end
      if not s[9] then
        s[9] = true
        touched[#touched + 1] = id
      end
      if ARGV[a + 5] == '' then
        s[8] = true
      else
        local hdr = ARGV[a + 6]
        if string.byte(hdr, 1) == 43 then    -- '+'
          local g2, f2, h2 = string.match(hdr, '^%+(%S+) (%S+) (%S+)$')
          hdr = g2 .. ' ' .. f2 .. ' ' .. h2 .. ' ' .. string.match(s[10], '^%S+ %S+ %S+ ([^\n]*)')
        end
        s[1], s[2], s[3], s[4] = string.match(hdr, '^(%S+) (%S+) (%S+) (%S+) ')
        s[7] = hdr
        s[10] = hdr
      end
    end
    out[#out + 1] = st
    out[#out + 1] = topic
    out[#out + 1] = pseg
  end
end
if seq > seq0 then
  redis.call('SET', seqk, string.format('%d', seq))
end
-- final states; distinct ids have distinct members, so all removals before all additions is safe
for base = 1, #touched, CHUNK do
  local del, rem, add, set = {}, {}, {}, {}
  for j = base, math.min(#touched, base + CHUNK - 1) do
    local id = touched[j]
    local s = state[id]
    local ot, op = tc_of(s[11])
    tc_add(ot, op, -1)
    if s[8] then
      del[#del + 1] = id
      rem[#rem + 1] = s[6]
    else
      local nt, np = tc_of(s[7])
      tc_add(nt, np, 1)
      local m = s[3] .. id
      if m ~= s[6] then
        rem[#rem + 1] = s[6]
        add[#add + 1] = 0
        add[#add + 1] = m
      end
      set[#set + 1] = id
      set[#set + 1] = s[7] .. '\n' .. s[5]
    end
  end
  if #del > 0 then
    redis.call('HDEL', timers, unpack(del))
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
tc_apply(KEYS[8], KEYS[9])
return out
