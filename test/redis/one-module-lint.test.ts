import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPOSITORY_ROOT, typeScriptFiles } from "../support/source-files";

/** Every Redis connection of Herald is made in src/redis, so all of them share one policy. */
const root = REPOSITORY_ROOT;
const THE_ONE_FOLDER = "src/redis/";


/** A value import or a require of ioredis (a type import makes no connection), or a client made by hand. */
const MAKES_A_CLIENT = [/^import\s+(?!type\b)[^;]*from\s+["']ioredis["']/m, /\brequire\(\s*["']ioredis["']\s*\)/, /\bnew\s+Redis\s*\(/, /\bRedis\.createClient\b/];

test(`no file outside ${THE_ONE_FOLDER} makes a Redis client`, () => {
  const makers = ["src", "sample-app"]
    .flatMap((folder) => typeScriptFiles(join(root, folder)))
    .map((file) => relative(root, file))
    .filter((file) => !file.startsWith(THE_ONE_FOLDER))
    .filter((file) => MAKES_A_CLIENT.some((pattern) => pattern.test(readFileSync(join(root, file), "utf8"))));
  expect(makers).toEqual([]);
});

test("the one module is where the client is made: it requires ioredis (on first use, docs/architecture.md) and constructs it", () => {
  const source = readFileSync(join(root, THE_ONE_FOLDER, "connection.ts"), "utf8");
  expect(source).toMatch(/\brequire\(\s*["']ioredis["']\s*\)/);
  expect(source).toMatch(/\bnew\s+RedisClient\s*\(/);
});
