import type { Server } from "node:http";

/** Ends the process on SIGTERM/SIGINT with a normal exit, so that `--cpu-prof` writes its profile. */
export function exitOnSignal(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => process.exit(0));
}

/** The port the runner chose for this baseline. */
export function portFromEnv(): number {
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error("PORT must be set to the port to listen on");
  return port;
}

/** Where a baseline listens: the PORT the runner chose, on the loopback interface. */
export function listenFromEnv(server: Server): void {
  const port = portFromEnv();
  exitOnSignal();
  server.listen(port, "127.0.0.1");
}
