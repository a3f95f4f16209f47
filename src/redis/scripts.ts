import type Redis from "ioredis";

/** A Lua script and how many of its arguments are keys. */
export interface RedisScript {
  keys: number;
  lua: string;
}

/**
 * Makes each script a command of the client, once. ioredis runs such a command by EVALSHA and,
 * when Redis answers NOSCRIPT (it restarted, or its script cache was flushed), by EVAL, which
 * caches it again: no script is ever lost with Redis.
 */
export function defineScripts(client: Redis, scripts: Record<string, RedisScript>): void {
  for (const [name, { keys, lua }] of Object.entries(scripts)) {
    if (typeof (client as unknown as Record<string, unknown>)[name] === "function") continue;
    client.defineCommand(name, { numberOfKeys: keys, lua });
  }
}
