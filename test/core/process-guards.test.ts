import { execFile } from "node:child_process";
import { join } from "node:path";

const dist = join(__dirname, "../../dist");

/** Runs in a child process because Jest installs its own rejection handling in the test process. */
const script = `
const { guardUnhandledRejections } = require(${JSON.stringify(join(dist, "core/process-guards.js"))});
const { createLogger } = require(${JSON.stringify(join(dist, "core/logger.js"))});
guardUnhandledRejections(createLogger({ level: "info", format: "json", destination: 1 }));
Promise.reject(new Error("forgotten"));
setTimeout(() => console.log(JSON.stringify({ alive: true })), 50);
`;

test("a leaked rejected promise is logged once and the process keeps running", async () => {
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ["-e", script], (error, out) => (error ? reject(error) : resolve(out))),
  );
  const lines = stdout.trim().split("\n").map((line) => JSON.parse(line));
  expect(lines.filter((line) => line.err?.message === "forgotten")).toHaveLength(1);
  expect(lines.at(-1)).toEqual({ alive: true });
});
