/** The oldest Node.js Herald runs on: what its package.json's `engines` asks for. */
export function requiredNodeVersion(): string {
  const manifest = require("../../package.json") as { engines?: { node?: string } };
  const wanted = /(\d+)\.(\d+)\.(\d+)/.exec(manifest.engines?.node ?? "");
  if (!wanted) throw new Error(`herald's package.json asks for no Node.js version it can read: "${manifest.engines?.node}"`);
  return wanted[0];
}

function parts(version: string): number[] {
  return version.replace(/^v/, "").split(".").map((part) => Number.parseInt(part, 10) || 0);
}

/** Whether `version` is at least `required`, both as `major.minor.patch`. */
export function isAtLeast(version: string, required: string): boolean {
  const have = parts(version);
  const need = parts(required);
  for (let index = 0; index < 3; index++) {
    if (have[index]! !== need[index]!) return have[index]! > need[index]!;
  }
  return true;
}

/**
 * The one line that refuses to run on an unsupported Node.js, naming the version needed; undefined
 * on a supported one. Older lines lack what Herald uses (a global WebSocket, `require()` of ES
 * modules, the OpenTelemetry SDK), and fail later in ways that do not say why.
 */
export function unsupportedNodeRefusal(version: string = process.versions.node, required: string = requiredNodeVersion()): string | undefined {
  if (isAtLeast(version, required)) return undefined;
  return `herald: Node.js ${required} or newer is needed, and this is Node.js ${version.replace(/^v/, "")} (${process.execPath})`;
}
