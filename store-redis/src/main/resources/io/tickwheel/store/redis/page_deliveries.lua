-- listDeliveries: up to ARGV[2] + 1 seqs after ARGV[1] from the zset KEYS[2] (a state's, or all), with their records
-- from the hash KEYS[1], read atomically. Returns seq1, record1, seq2, record2, ... (a record may be false only if
-- the hash and zset disagree, which no script leaves behind).
local seqs = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[1], '+inf', 'LIMIT', 0, tonumber(ARGV[2]) + 1)
if #seqs == 0 then
  return {}
end
local recs = redis.call('HMGET', KEYS[1], unpack(seqs))
local out = {}
for i = 1, #seqs do
  out[#out + 1] = seqs[i]
  out[#out + 1] = recs[i]
end
return out
