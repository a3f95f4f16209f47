import { execFileSync } from "node:child_process";
import { join } from "node:path";

/**
 * Tests that run the real `herald` executable need the compiled package; an incremental build
 * makes this cheap when nothing changed. tsc still emits when it finds type errors, so those are
 * reported here and left to `tsc --noEmit` (run by CI) to fail on.
 */
export default function globalSetup(): void {
  const root = join(__dirname, "../..");
  try {
    execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(root, "src")], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const output = String((error as { stdout?: Buffer }).stdout ?? "");
    process.stderr.write(`\nBuilding dist/ reported type errors (the build was still written):\n${output}\n`);
  }
}
