import { execFileSync } from "node:child_process";
import { join } from "node:path";

/**
 * Tests that run the real `herald` executable need the compiled package; an incremental build
 * makes this cheap when nothing changed. tsc still emits when it finds type errors, so those are
 * reported here and left to `tsc --noEmit` (run by CI) to fail on.
 */
export default function globalSetup(): void {
  const root = join(__dirname, "../..");
  // The package, then herald/client's browser modules, as `npm run build` does.
  for (const project of [join(root, "src"), join(root, "src/client/tsconfig.esm.json")]) {
    try {
      execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", project], {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      const output = String((error as { stdout?: Buffer }).stdout ?? "");
      process.stderr.write(`\nBuilding ${project} reported type errors (the build was still written):\n${output}\n`);
    }
  }
}
