-- one page of timers in (due, id) order: loadAll and list.
-- KEYS[1] timers hash, KEYS[2] an index (the due index or a per-topic index).
-- ARGV: lex start ('-' or '(' .. member), count. Returns member1, record1, member2, record2, ...
local ms = redis.call('ZRANGE', KEYS[2], ARGV[1], '+', 'BYLEX', 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
local chunk = 512
for s = 1, #ms, chunk do
  local e = math.min(s + chunk - 1, #ms)
  local ids = {}
  for j = s, e do
    ids[#ids + 1] = string.sub(ms[j], 17)
  end
  local vs = redis.call('HMGET', KEYS[1], unpack(ids))
  for j = s, e do
    local v = vs[j - s + 1]
    if v then
      out[#out + 1] = ms[j]
      out[#out + 1] = v
    end
  end
end
return out
