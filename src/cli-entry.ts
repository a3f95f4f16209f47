#!/usr/bin/env node
import "reflect-metadata";
import { runCli } from "./cli-program";

// The TypeScript hook is registered by the commands that load the app, so that `--help`,
// `new` and `--version` stay quick.
void runCli();
