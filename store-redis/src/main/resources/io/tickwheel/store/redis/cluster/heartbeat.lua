-- heartbeat / members: KEYS[1] the members hash (node id -> "expiresAt lastSeenAt address").
-- ARGV: node id, address, ttl ms (heartbeat), or nothing (members: read only).
-- Removes members whose heartbeat expired more than a minute ago (heartbeat only).
-- Returns {now, id1, lastSeen1, address1, ...} of the live members (expiresAt > now by Redis TIME).
local members = KEYS[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if #ARGV == 3 then
  redis.call('HSET', members, ARGV[1],
    string.format('%d', now + tonumber(ARGV[3])) .. ' ' .. string.format('%d', now) .. ' ' .. ARGV[2])
end
local all = redis.call('HGETALL', members)
local out = {string.format('%d', now)}
local gone = {}
for i = 1, #all, 2 do
  local exp, seen, addr = string.match(all[i + 1], '^(%d+) (%d+) (.*)$')
  if exp and tonumber(exp) > now then
    out[#out + 1] = all[i]
    out[#out + 1] = seen
    out[#out + 1] = addr
  elseif #ARGV == 3 and (not exp or tonumber(exp) + 60000 < now) then
    gone[#gone + 1] = all[i]
  end
end
if #gone > 0 then
  redis.call('HDEL', members, unpack(gone))
end
return out
