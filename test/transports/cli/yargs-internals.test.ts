import yargs from "yargs";
import { declaredOptions } from "../../../src/transports/cli/yargs-internals";

/**
 * What Herald reads of yargs beyond its types, against the yargs installed: when a release moves
 * it, this fails, rather than every action command refusing its own flags as unknown.
 */
test("getOptions() names every declared flag in key, and its aliases by name", () => {
  const command = yargs([]).option("to", { type: "string", alias: "t" }).option("dry-run", { type: "boolean" });
  const options = declaredOptions(command);
  expect(Object.keys(options.key)).toEqual(expect.arrayContaining(["to", "dry-run"]));
  expect(options.alias.to).toEqual(["t"]);
});
