import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPOSITORY_ROOT, typeScriptFiles } from "../support/source-files";

/** zod's internals (`_zod`) are read in one module, so that a zod release that moves them changes one file. */
const root = REPOSITORY_ROOT;
const THE_ONE_MODULE = "src/core/zod-internals.ts";


test(`no file but ${THE_ONE_MODULE} reads zod's internals`, () => {
  const readers = ["src", "sample-app"]
    .flatMap((folder) => typeScriptFiles(join(root, folder)))
    .filter((file) => relative(root, file) !== THE_ONE_MODULE && /\b_zod\b/.test(readFileSync(file, "utf8")))
    .map((file) => relative(root, file));
  expect(readers).toEqual([]);
});

test("the one module is where the reads are", () => {
  expect(readFileSync(join(root, THE_ONE_MODULE), "utf8")).toMatch(/\._zod\b/);
});
