import { allowsTransport } from "../../core/action-transports";
import { Connection } from "../../core/connection";
import { CONNECTION_TYPE, ExitCode } from "../../core/constants";
import { TASK_OPERATIONS } from "../../core/ports/task-operations";
import { requestIdFrom } from "../../core/request-id";
import type { HeraldServer } from "../../core/server";
import { operationOutcome } from "../../toolchain/cli-app";
import { type ActionArguments, parseActionArguments } from "./action-arguments";
import { printResult } from "./action-command";
import { commandLineRefusal } from "./command-line-refusal";
import type { ForwardedActionCommand, ForwardedCall, ForwardedReply, ForwardedTasksCommand } from "./running-server";
import { runTasksOperation } from "./tasks-command";
import { unknownCommandError } from "./unknown-arguments";

type Send = (reply: ForwardedReply) => void;

/** A command line the CLI would have refused itself (an unknown command, an unknown flag), refused as it would print it. */
function refuseCommandLine(server: HeraldServer, thrown: unknown, pretty: boolean, send: Send): ExitCode {
  send({ write: commandLineRefusal(thrown, { terminal: pretty, production: server.config.production }).stdout });
  return ExitCode.error;
}

/** `herald <action> …`: its flags read with the action's schema, then the call, on a CLI connection as the CLI would make it. */
async function runActionCommand(server: HeraldServer, call: ForwardedActionCommand, send: Send): Promise<ExitCode> {
  const pretty = call.pretty === true;
  const registered = server.registry.get(call.action);
  // An action the CLI may not call has no command, so naming it is an unknown command, as in the CLI's own program.
  if (!registered || !allowsTransport(registered.action, CONNECTION_TYPE.cli)) {
    return refuseCommandLine(server, unknownCommandError(call.action), pretty, send);
  }
  let parsed: ActionArguments;
  try {
    parsed = await parseActionArguments(registered, call.args ?? []);
  } catch (thrown) {
    return refuseCommandLine(server, thrown, pretty, send);
  }
  const requestId = requestIdFrom(call.requestId);
  const connection = new Connection({ type: CONNECTION_TYPE.cli, id: requestId, requestId, cannotAsk: "over cli run by the running server" });
  const { params, idempotencyKey } = parsed;
  const result = await server.runAction(registered.name, params, connection, idempotencyKey === undefined ? {} : { idempotencyKey });
  return printResult({ write: (text) => send({ write: text }), exit: () => undefined }, result, { pretty });
}

/** `herald tasks …` on this server's own queue, which without Redis no other process can reach. */
async function runTasksCommand(server: HeraldServer, call: ForwardedTasksCommand, send: Send): Promise<ExitCode> {
  const tasks = server.container.resolve(TASK_OPERATIONS);
  const { text, code } = await operationOutcome(() => runTasksOperation(tasks, call.operation), () => server.config.production);
  send({ write: text });
  return code === 0 ? ExitCode.success : ExitCode.error;
}

/** Runs one call the CLI sent, writing what the CLI prints through `send`; resolves with the command's exit code. */
export function runForwardedCall(server: HeraldServer, call: ForwardedCall, send: Send): Promise<ExitCode> {
  switch (call.kind) {
    case "action":
      return runActionCommand(server, call, send);
    case "tasks":
      return runTasksCommand(server, call, send);
    case "probe":
      return Promise.resolve(ExitCode.success);
    default:
      send({ stderr: "The app's running server cannot read this command, sent by another version of Herald: restart the server\n" });
      return Promise.resolve(ExitCode.error);
  }
}
