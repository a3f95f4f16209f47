import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_RUN_TIMEOUT, herald } from "../support/cli";
import { usePostgresSchema } from "./support/postgres";

const root = join(__dirname, "../..");
const postgres = usePostgresSchema("sample_migrate");
const env = () => ({ DATABASE_URL: postgres.url, DATABASE_MIGRATIONS: "manual" });
const migrate = async (...args: string[]) => {
  const run = await herald(["migrate", ...args, "-q"], { cwd: root, env: env() });
  return { code: run.code, body: JSON.parse(run.stdout) };
};

test("herald migrate status, run, revert and generate drive the sample app's migrations", async () => {
  expect(await migrate("status")).toEqual({ code: 0, body: { response: { applied: [], pending: ["InitialSchema1763769600000"] } } });
  expect(await migrate("run")).toEqual({ code: 0, body: { response: { applied: ["InitialSchema1763769600000"] } } });
  expect((await migrate("status")).body.response).toEqual({ applied: ["InitialSchema1763769600000"], pending: [] });

  const directory = mkdtempSync(join(tmpdir(), "herald-migrations-"));
  expect(await migrate("generate", "nothing-changed", "--dir", directory)).toEqual({ code: 0, body: { response: { files: [] } } });

  expect(await migrate("revert")).toEqual({ code: 0, body: { response: { reverted: "InitialSchema1763769600000" } } });
  expect((await migrate("status")).body.response.pending).toEqual(["InitialSchema1763769600000"]);

  const generated = await migrate("generate", "whole-schema", "--dir", directory);
  expect(generated.code).toBe(0);
  const [file] = generated.body.response.files as string[];
  expect(file).toMatch(/\d+-whole-schema\.ts$/);
  const source = readFileSync(file!, "utf8");
  expect(source).toMatch(/export class WholeSchema\d+ implements MigrationInterface/);
  expect(source).toContain('CREATE TABLE \\"users\\"');
  expect(source).toContain('DROP TABLE \\"users\\"');

  const badName = await migrate("generate", "Not A Name", "--dir", directory);
  expect(badName.code).toBe(1);
  expect(badName.body.error.key).toBe("name");
  // Eight runs of the CLI one after another: each is bounded by its own timeout, not by the test's default 30 s.
}, 8 * CLI_RUN_TIMEOUT);
