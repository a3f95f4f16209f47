import { Connection, CONNECTION_TYPE } from "herald";
import { terminalInput } from "../../../src/transports/cli/terminal-input";

test("a command answers roots with its working directory, terminal or not, and forms only at a terminal", async () => {
  const piped = new Connection({ type: CONNECTION_TYPE.cli, callerInput: terminalInput(undefined, "/srv/shop") });
  expect(await piped.ask({ where: { roots: true } })).toEqual({ where: { roots: [{ uri: "file:///srv/shop", name: "shop" }] } });
  expect([piped.canAsk("roots"), piped.canAsk("form"), piped.canAsk("sample")]).toEqual([true, false, false]);
  const atTerminal = new Connection({ type: CONNECTION_TYPE.cli, callerInput: terminalInput({ input: process.stdin, output: process.stderr }, "/srv/shop") });
  expect([atTerminal.canAsk("roots"), atTerminal.canAsk("form"), atTerminal.canAsk("sample")]).toEqual([true, true, false]);
});
