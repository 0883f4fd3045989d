-- create_group (before create_absent.lua and lone.lua): one group of create_absent.lua's ARGV, from A[at]: topic,
-- paused ('1' or '0'), k, then the k timers in chunks of c = min(k - done, 1000): c ids, then c pairs (0, member), then
-- c pairs (id, record). Writes the timers whose ids timers (hash) does not hold, with their members in due (zset);
-- appends the ids it holds already to found. Returns the group's topic, whether it is paused, how many it created and
-- where the next group starts. Counts nothing: the caller adds the created ones to the topic's count.
-- A chunk whose ids are all absent (the usual case) is one HMGET, one ZADD and one HSET straight from A's ranges: no
-- per-timer Lua work. The chunk keeps unpack() inside Lua's C stack limit (8,000 values).
local function create_group(timers, due, A, at, found)
  local topic, paused, k = A[at], A[at + 1] == '1', tonumber(A[at + 2])
  at = at + 3
  local created = 0
  for base = 0, k - 1, 1000 do
    local c = math.min(k - base, 1000)
    local z, h = at + c, at + 3 * c
    local olds = redis.call('HMGET', timers, unpack(A, at, z - 1))
    local any = false
    for j = 1, c do
      if olds[j] then
        any = true
        break
      end
    end
    if not any then
      redis.call('ZADD', due, unpack(A, z, h - 1))
      redis.call('HSET', timers, unpack(A, h, h + 2 * c - 1))
      created = created + c
    else
      local add, set = {}, {}
      for j = 1, c do
        if olds[j] then
          found[#found + 1] = A[at + j - 1]
        else
          add[#add + 1] = 0
          add[#add + 1] = A[z + 2 * j - 1]
          set[#set + 1] = A[h + 2 * j - 2]
          set[#set + 1] = A[h + 2 * j - 1]
          created = created + 1
        end
      end
      if #add > 0 then
        redis.call('ZADD', due, unpack(add))
        redis.call('HSET', timers, unpack(set))
      end
    end
    at = h + 2 * c
  end
  return topic, paused, created, at
end
