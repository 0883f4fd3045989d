-- recordFirings: for each request, if the stored timer still has the expected generation and firing count,
-- append its firing to the log (seq = INCR of the counter, stream id "<seq>-0") and advance or remove the timer.
-- A stale request writes nothing and consumes no seq.
-- KEYS[1] timers hash, KEYS[2] due index, KEYS[3] seq counter, KEYS[4] firing log stream.
-- ARGV: groups of 6 (id, generation, firingsBefore, firingMeta or '' for no log entry,
--                    next member or '' to remove, next header).
-- Returns groups of 3: status (0 stale, -1 applied without a firing, else the seq), topic, payload segment.
local timers, due, seqk, log = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local out = {}
for i = 1, #ARGV, 6 do
  local id = ARGV[i]
  local st, topic, pseg = 0, '', ''
  local old = redis.call('HGET', timers, id)
  if old then
    local ogen, ofir, ohex, otopic = string.match(old, '^(%S+) (%S+) (%S+) (%S+) ')
    if ogen == ARGV[i + 1] and ofir == ARGV[i + 2] then
      local nl = string.find(old, '\n', 1, true)
      local ps = string.sub(old, nl + 1)
      if ARGV[i + 3] ~= '' then
        st = redis.call('INCR', seqk)
        redis.call('XADD', log, string.format('%d-0', st), 'f', ARGV[i + 3], 't', otopic, 'p', ps)
        topic, pseg = otopic, ps
      else
        st = -1
      end
      local om, m = ohex .. id, ARGV[i + 4]
      if m == '' then
        redis.call('HDEL', timers, id)
        redis.call('ZREM', due, om)
      else
        if om ~= m then
          redis.call('ZREM', due, om)
          redis.call('ZADD', due, 0, m)
        end
        redis.call('HSET', timers, id, ARGV[i + 5] .. '\n' .. ps)
      end
    end
  end
  out[#out + 1] = st
  out[#out + 1] = topic
  out[#out + 1] = pseg
end
return out
