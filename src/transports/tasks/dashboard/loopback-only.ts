import { injectable } from "tsyringe";
import type { Connection } from "../../../core/connection";
import { CONNECTION_TYPE } from "../../../core/constants";
import { ErrorType, TypedError } from "../../../core/errors";
import { isLoopbackHostname } from "../../../core/loopback-names";
import type { ActionMiddleware } from "../../../core/middleware";

/** Headers a proxy adds: behind one, every request comes from a loopback address, whoever sent it. */
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip"];

/** The CLI runs on the server, with its environment; a job was queued by the server's own code. */
const LOCAL_TRANSPORTS = new Set<CONNECTION_TYPE>([CONNECTION_TYPE.cli, CONNECTION_TYPE.task]);

function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const ipv4 = address.toLowerCase().startsWith("::ffff:") ? address.slice(7) : address;
  return ipv4.startsWith("127.") || address === "::1";
}

/** Why a network call does not come from this machine; undefined when it does. */
function notLocal(connection: Connection): string | undefined {
  if (!isLoopbackAddress(connection.remoteAddress)) return "the call comes from another address";
  const { headers } = connection;
  if (FORWARDING_HEADERS.some((name) => headers[name] !== undefined)) return "the call came through a proxy";
  // A page of another site whose name resolves to 127.0.0.1 (DNS rebinding) sends its own name as Host.
  const hostname = headers.host === undefined ? undefined : URL.parse(`http://${headers.host}`)?.hostname;
  if (hostname === undefined || !isLoopbackHostname(hostname)) return "the call names a host other than this machine";
  return undefined;
}

/**
 * The tasks dashboard's check when the app configures no admin check (outside production only):
 * the CLI, and network callers on this machine that name it as `localhost`, `127.0.0.1` or
 * `[::1]` and did not come through a proxy. Everyone else is refused before the inputs are read.
 */
@injectable()
export class LoopbackOnly implements ActionMiddleware {
  readonly errors = { CONNECTION_FORBIDDEN: true };

  runBeforeInputs(connection: Connection): void {
    if (LOCAL_TRANSPORTS.has(connection.type)) return;
    const reason = notLocal(connection);
    if (reason === undefined) return;
    throw new TypedError({
      message: `The tasks dashboard answers callers on this machine only, and ${reason}; an admin check (tasksDashboard.adminCheck in herald.config.ts) opens it to others`,
      type: ErrorType.CONNECTION_FORBIDDEN,
    });
  }
}
