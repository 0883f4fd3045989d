-- trimFirings: keep at most maxCount newest firings, then drop the oldest ones fired before the cutoff,
-- scanning at most `budget` entries by age per call; the newest firing is always kept.
-- KEYS[1] firing log stream. ARGV: maxCount, cutoff (epoch ms; older firings go), budget.
-- Returns {removed, more, next}: more = 1 when the age scan stopped at its budget (call again); next = the fire time
-- of the oldest firing kept that a later cutoff could remove (the newest is never removed), -1 when there is none.
-- The age scan reads the oldest entry alone first, then chunks growing to 256: in the usual case (nothing old enough)
-- a call is an XLEN and a one-entry XRANGE (a 256-entry XRANGE costs Redis ~4 M instructions, and a cluster node
-- trims each partition it owns every 10 s).
local log = KEYS[1]
local maxCount, cutoff, budget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local removed = 0
local len = redis.call('XLEN', log)
if len > maxCount then
  removed = redis.call('XTRIM', log, 'MAXLEN', '=', maxCount)
  len = len - removed
end
local old, more, from, done, count, nxt = 0, 0, '-', false, 1, -1
while not done do
  local es = redis.call('XRANGE', log, from, '+', 'COUNT', count)
  count = math.min(256, count * 16)
  if #es == 0 then
    break
  end
  for _, e in ipairs(es) do
    if old >= len - 1 then
      done = true
      break
    end
    if old >= budget then
      more, done = 1, true
      break
    end
    local firedAt = tonumber(string.match(e[2][2], '^%S+ %S+ (%S+)'))
    if firedAt < cutoff then
      old = old + 1
    else
      nxt = firedAt
      done = true
      break
    end
  end
  from = '(' .. es[#es][1]
end
if old > 0 then
  removed = removed + redis.call('XTRIM', log, 'MAXLEN', '=', len - old)
end
return {removed, more, nxt}
