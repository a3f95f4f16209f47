/** Redis time in milliseconds, so that processes with skewed clocks agree on what has lapsed. */
const NOW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

/**
 * KEYS: members of (channel, key), keys of channel, channel index. ARGV: member, presence key,
 * ttl ms, channel. Adds or refreshes the member; returns 1 when the key was not present. The
 * channel's keys and the index outlive a lapsed member by a TTL, so that a sweep still finds the
 * key and announces its departure; with nobody left refreshing anything, Redis drops them all.
 */
export const JOIN = `${NOW}
local ttl = tonumber(ARGV[3])
local expires = now + ttl
redis.call('ZADD', KEYS[1], expires, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
local known = redis.call('ZSCORE', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[2], expires, ARGV[2])
redis.call('PEXPIRE', KEYS[2], 2 * ttl)
redis.call('SADD', KEYS[3], ARGV[4])
redis.call('PEXPIRE', KEYS[3], 2 * ttl)
if known then return 0 end
return 1
`;

/**
 * KEYS: members of (channel, key), keys of channel. ARGV: member ('' to only drop lapsed ones),
 * presence key. Returns 1 when the key has no live member left and this call removed it, so that
 * of several processes reaping the same key exactly one announces its departure.
 */
export const LEAVE = `${NOW}
if ARGV[1] ~= '' then redis.call('ZREM', KEYS[1], ARGV[1]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local latest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if #latest == 0 then
  redis.call('DEL', KEYS[1])
  return redis.call('ZREM', KEYS[2], ARGV[2])
end
redis.call('ZADD', KEYS[2], latest[2], ARGV[2])
return 0
`;

/** KEYS: keys of channel. The presence keys whose every member may have lapsed. */
export const LAPSED = `${NOW}
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
`;

/** KEYS: keys of channel. The presence keys with a live member. */
export const PRESENT = `${NOW}
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
`;

/** KEYS: keys of channel, channel index. ARGV: channel. Drops the channel from the index once empty. */
export const FORGET_IF_EMPTY = `
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
return 0
`;
