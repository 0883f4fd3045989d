-- wrk script: POST /v1/timers, one new timer per request, due in 1 h (nothing fires during a run).
-- Ids are unique per run, per wrk thread and per request: "b<time>-<random>-<thread>-<n>", so runs can be
-- repeated against the same server without 409s (wrk counts any answer but 2xx/3xx as "Non-2xx").
-- Usage: wrk -t1 -c64 -d10s -s bench/wrk/post.lua http://127.0.0.1:8089 [-- PARTITIONS OWNED]
-- With PARTITIONS (the cluster's partition count) and OWNED (the partitions the target node owns, comma-separated),
-- every id is one of an owned partition (the id's "-k" suffix drawn until it is; about PARTITIONS / #OWNED draws), so
-- the node creates every timer itself, as the Java and TypeScript clients send each timer to its owner. The partition
-- is the server's Partitions.of: fmix32(String.hashCode(id)) mod PARTITIONS, unsigned (ids are ASCII).

-- With TICKWHEEL_RATE=R in the environment the requests leave at R per second (each request takes the next slot of a
-- schedule of 1/R s, waiting for it; wrk's delay() has millisecond steps), whatever the response times, as long as
-- the connections suffice (each has one request out): two setups given the same R are compared at one load.

local threads = {}

local rate = tonumber(os.getenv("TICKWHEEL_RATE") or "")
if rate then
  local ffi = require("ffi")
  ffi.cdef [[
    typedef struct { long sec; long nsec; } tickwheel_timespec;
    int clock_gettime(int clock, tickwheel_timespec *ts);
  ]]
  local ts = ffi.new("tickwheel_timespec")
  local function now_ms()
    ffi.C.clock_gettime(1, ts)   -- CLOCK_MONOTONIC
    return tonumber(ts.sec) * 1000 + tonumber(ts.nsec) / 1e6
  end
  local interval, slot = 1000 / rate, nil
  function delay()
    local now = now_ms()
    if not slot or slot < now then
      slot = now      -- behind the schedule (or starting): now, no catching up in a burst
    end
    local d = slot - now
    slot = slot + interval
    return d
  end
end

local prefix
local n = 0
local bit = require("bit")
local partitions, owned = nil, nil

-- 32-bit multiplication, wrapping as Java's int does (a double holds only 53 bits of the full product)
local function mul32(a, b)
  local al, ah = bit.band(a, 0xffff), bit.rshift(a, 16)
  local bl, bh = bit.band(b, 0xffff), bit.rshift(b, 16)
  return bit.tobit(al * bl + bit.lshift(bit.band(ah * bl + al * bh, 0xffff), 16))
end

-- the server's Partitions.of(id, partitions)
function partition_of(id, parts)
  local h = 0
  for k = 1, #id do
    h = bit.tobit(h * 31 + id:byte(k))
  end
  h = bit.bxor(h, bit.rshift(h, 16))
  h = mul32(h, 0x85ebca6b)
  h = bit.bxor(h, bit.rshift(h, 13))
  h = mul32(h, 0xc2b2ae35)
  h = bit.bxor(h, bit.rshift(h, 16))
  if h < 0 then
    h = h + 4294967296
  end
  return h % parts
end

function init(args)
  if args[1] then
    partitions = tonumber(args[1])
    owned = {}
    for p in string.gmatch(args[2] or "", "%d+") do
      owned[tonumber(p)] = true
    end
    if not partitions or next(owned) == nil then
      error("post.lua: arguments are PARTITIONS OWNED (comma-separated partitions), got " .. tostring(args[1])
        .. " " .. tostring(args[2]))
    end
  end
  -- seeded from /dev/urandom: wrk processes started in the same second (one per cluster node) must not share ids
  local f = io.open("/dev/urandom", "rb")
  local seed = os.time()
  if f then
    local b = f:read(4)
    f:close()
    seed = 0
    for k = 1, #b do seed = seed * 256 + b:byte(k) end
  end
  math.randomseed(seed + (tid or 0))
  prefix = string.format("b%d-%d-%d-", os.time(), math.random(1, 1000000000), tid or 0)
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  n = n + 1
  local id = prefix .. n
  if owned then
    local k = 0
    repeat
      k = k + 1
      id = prefix .. n .. "-" .. k
    until owned[partition_of(id, partitions)]
  end
  return wrk.format("POST", "/v1/timers", nil,
    '{"id":"' .. id .. '","topic":"bench","delayMs":3600000,"payload":{"n":' .. n .. '}}')
end

-- answers other than 2xx: counted per status, the first body of each kept; done() prints them (stderr-free: wrk's
-- report is stdout), e.g. "non-2xx 503 x12: {"error":...}"
errs = ""
local counts, firsts = {}, {}

function response(status, headers, body)
  if status >= 300 then
    if not counts[status] then
      firsts[status] = string.sub(body or "", 1, 200)
    end
    counts[status] = (counts[status] or 0) + 1
    local parts = {}
    for s, c in pairs(counts) do
      table.insert(parts, s .. " x" .. c .. ": " .. firsts[s])
    end
    errs = table.concat(parts, " | ")
  end
end

function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    local e = t:get("errs")
    if e and e ~= "" then
      io.write("non-2xx " .. e .. "\n")
    end
  end
end
