-- sections (before write_multi.lua): what it does for each partition's section of a call, lone or not.
-- section_fence: nil when the lease hash `lease` holds `epoch` and has not expired by `now` (Redis TIME, ms), else the
-- section's FENCED status; each lease is read once per call (`leases`: lease hash -> {epoch, exp, live}; no section
-- writes a lease).
local function section_fence(leases, lease, epoch, now)
  local l = leases[lease]
  if not l then
    l = redis.call('HMGET', lease, 'epoch', 'exp')
    l[3] = l[2] and tonumber(l[2]) > now    -- not expired
    leases[lease] = l
  end
  if l[1] ~= epoch or not l[3] then
    return 'FENCED lease epoch ' .. epoch .. ' is not current (stored ' .. tostring(l[1]) .. ', expires '
      .. tostring(l[2]) .. ', now ' .. now .. ')'
  end
  return nil
end
-- section_run: runs run(x, y) as a section, returning its status and reply: 'OK' and its reply (false for nil, which
-- would end the flat reply array); 'ERR ...' and false when it raised or returned an error (what it wrote before the
-- error stays written).
local function section_run(run, x, y)
  local ok, out = pcall(run, x, y)
  if not ok then
    return 'ERR ' .. (type(out) == 'table' and tostring(out.err) or tostring(out)), false
  elseif type(out) == 'table' and out.err then
    return 'ERR ' .. tostring(out.err), false
  elseif out == nil then
    return 'OK', false
  end
  return 'OK', out
end
