-- one page of timers in (due, id) order, for loadAll and list, optionally only those of one topic.
-- KEYS[1] timers hash, KEYS[2] due index.
-- ARGV: lex start ('-' or '(' .. member), want (timers to return at most), topic ('' = all),
--       budget (index entries to examine at most; bounds the work of a filtered page).
-- Skips entries without a record and entries whose due time is not their record's (see createAll).
-- Returns {exhausted (1 = the index ended), last examined member or '', member1, record1, member2, record2, ...}.
local timers, due = KEYS[1], KEYS[2]
local start, want, topic, budget = ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local out = {0, ''}
local found, examined, last, stop = 0, 0, '', false
while not stop and found < want and examined < budget do
  local n = math.min(1024, budget - examined)
  if topic == '' then
    n = math.min(n, want - found)
  end
  local ms = redis.call('ZRANGE', due, start, '+', 'BYLEX', 'LIMIT', 0, n)
  if #ms == 0 then
    out[1] = 1
    break
  end
  local ids = {}
  for j = 1, #ms do
    ids[j] = string.sub(ms[j], 17)
  end
  local vs = redis.call('HMGET', timers, unpack(ids))
  for j = 1, #ms do
    examined = examined + 1
    last = ms[j]
    local v = vs[j]
    local hex, tp
    if v then
      hex, tp = string.match(v, '^%S+ %S+ (%S+) (%S+) ')
    end
    -- an entry whose due time is not its record's was left behind by createAll (a caller bug): not listed
    if v and hex == string.sub(ms[j], 1, 16) and (topic == '' or tp == topic) then
      out[#out + 1] = ms[j]
      out[#out + 1] = v
      found = found + 1
      if found == want then
        stop = true
        break
      end
    end
  end
  if not stop and #ms < n then
    out[1] = 1
    break
  end
  start = '(' .. last
end
out[2] = last
return out
