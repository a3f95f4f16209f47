#!/usr/bin/env node
import { unsupportedNodeRefusal } from "./core/node-version";

const refusal = unsupportedNodeRefusal();
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}

require("reflect-metadata");
// The TypeScript hook is registered by the commands that load the app, so that `--help`,
// `new` and `--version` stay quick.
void (require("./cli-program") as typeof import("./cli-program")).runCli();
