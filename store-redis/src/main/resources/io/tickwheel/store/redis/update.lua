-- update (touch): replace a timer's schedule only if its stored generation is the expected one; keeps the stored payload.
-- KEYS[1] timers hash, KEYS[2] due index, KEYS[3] and KEYS[4] the counts (counts.lua). ARGV: id, expectedGeneration, member, header (record without "\n"+payload).
-- Returns the stored payload segment (what follows the header's newline: N, or P and the payload) when applied,
-- nil when absent or another generation (nothing written). The steps are update_one.lua's (prepended).
return update_one(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV, 0)
