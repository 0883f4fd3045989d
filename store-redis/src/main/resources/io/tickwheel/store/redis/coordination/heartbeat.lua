-- heartbeat / members: KEYS[1] the members hash (node id -> "expiresAt lastSeenAt address"), KEYS[2] the member
-- instances hash (node id -> instance nonce of the process that is the member).
-- ARGV: node id, address, ttl ms, instance ('' for none) (heartbeat), or nothing (members: read only).
-- A heartbeat is refused, changing nothing, when the node id's member is live and of another (known) instance:
-- returns {'in-use', its address, its lastSeenAt}. Removes members whose heartbeat expired more than a minute ago
-- (heartbeat only).
-- Returns {now, id1, lastSeen1, address1, ...} of the live members (expiresAt > now by Redis TIME).
local members, instances = KEYS[1], KEYS[2]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local beat = #ARGV == 4
if beat then
  local id, inst = ARGV[1], ARGV[4]
  local cur = redis.call('HGET', members, id)
  if cur and inst ~= '' then
    local exp, seen, addr = string.match(cur, '^(%d+) (%d+) (.*)$')
    local other = redis.call('HGET', instances, id)
    if exp and tonumber(exp) > now and other and other ~= '' and other ~= inst then
      return {'in-use', addr, seen}
    end
  end
  redis.call('HSET', members, id,
    string.format('%d', now + tonumber(ARGV[3])) .. ' ' .. string.format('%d', now) .. ' ' .. ARGV[2])
  redis.call('HSET', instances, id, inst)
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
  elseif beat and (not exp or tonumber(exp) + 60000 < now) then
    gone[#gone + 1] = all[i]
  end
end
if #gone > 0 then
  redis.call('HDEL', members, unpack(gone))
  redis.call('HDEL', instances, unpack(gone))
end
return out
