-- fire_one (after counts.lua, before fire.lua and lone.lua): one firing request of one partition, as fire.lua
-- describes a request, without a batch's tables: HGET the record, check its generation and firing count (a stale
-- request writes nothing and consumes no seq), INCR the seq counter, XADD the firing (and record its pending delivery),
-- then remove the timer or re-arm it, and apply its topic count change (tc_move).
-- timers, due, seqk, log, dlv, dpend, dall, counts, names: fire.lua's KEYS; the request's 7 arguments are
-- A[o + 1 .. o + 7].
-- Returns {status, topic, payload segment} as fire.lua does per request, or an error reply (nothing written).
local function fire_one(timers, due, seqk, log, dlv, dpend, dall, counts, names, A, o)
  local id = A[o + 1]
  local old = redis.call('HGET', timers, id)
  if not old then
    return {0, '', ''}
  end
  local g, f, h, t = string.match(old, '^(%S+) (%S+) (%S+) (%S+) ')
  if g ~= A[o + 2] or f ~= A[o + 3] then
    return {0, '', ''}
  end
  local pseg = string.sub(old, string.find(old, '\n', 1, true) + 1)
  local st, topic, out_pseg = -1, '', ''
  if A[o + 4] ~= '' then
    local seq = redis.pcall('INCR', seqk)    -- refused, writing nothing, when the counter is not a number
    if type(seq) == 'table' then
      return redis.error_reply('ERR seq counter ' .. seqk .. ' is not a number')
    end
    redis.call('XADD', log, string.format('%d-0', seq), 'f', A[o + 4], 't', t, 'p', pseg)
    if A[o + 7] ~= '' then
      redis.call('HSET', dlv, seq, 'N\n' .. A[o + 7] .. '\n' .. t .. '\n' .. pseg)
      redis.call('ZADD', dpend, seq, seq)
      redis.call('ZADD', dall, seq, seq)
    end
    st, topic, out_pseg = seq, t, pseg
  end
  local om = h .. id
  if A[o + 5] == '' then
    redis.call('HDEL', timers, id)
    redis.call('ZREM', due, om)
    tc_move(counts, names, t, tc_paused_in(old), nil, false)
  else
    local hdr = A[o + 6]
    if string.byte(hdr, 1) == 43 then    -- '+'
      local g2, f2, h2 = string.match(hdr, '^%+(%S+) (%S+) (%S+)$')
      hdr = g2 .. ' ' .. f2 .. ' ' .. h2 .. ' ' .. string.match(old, '^%S+ %S+ %S+ ([^\n]*)')
    end
    local nt, np = tc_of(hdr)
    tc_move(counts, names, t, tc_paused_in(old), nt, np)
    local m = string.match(hdr, '^%S+ %S+ (%S+) ') .. id
    if m ~= om then
      redis.call('ZREM', due, om)
      redis.call('ZADD', due, 0, m)
    end
    redis.call('HSET', timers, id, hdr .. '\n' .. pseg)
  end
  return {st, topic, out_pseg}
end
