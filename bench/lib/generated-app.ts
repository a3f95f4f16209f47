import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./subjects";

export function generatedActionName(index: number): string {
  return `gen:a${String(index).padStart(4, "0")}`;
}

export function generatedRoute(index: number): string {
  return `/gen/a${String(index).padStart(4, "0")}/:id`;
}

function actionSource(index: number, count: number): string {
  const padded = String(index).padStart(4, "0");
  return `import { z } from "zod";
import { Action, HTTP_METHOD } from "herald";

@Action({
  name: "${generatedActionName(index)}",
  description: "Generated action ${index} of ${count}",
  inputs: z.object({ id: z.coerce.number().int().min(1), label: z.string().max(40).optional() }),
  web: { route: "${generatedRoute(index)}", method: HTTP_METHOD.GET },
})
export class GeneratedAction${padded} {
  async run(params: { id: number; label?: string }) {
    return { action: "${generatedActionName(index)}", id: params.id, label: params.label ?? null };
  }
}
`;
}

/**
 * An app of `count` actions, one file each, in `dir` (outside the repository, so neither tsc nor
 * Jest sees it). Its node_modules links `herald` and `zod` to this repository's, as an install would.
 */
export function writeGeneratedApp(dir: string, count: number): void {
  mkdirSync(join(dir, "actions"), { recursive: true });
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: `boot-${count}`, version: "1.0.0", private: true }, null, 2)}\n`);
  writeFileSync(join(dir, "herald.config.ts"), 'import { defineConfig } from "herald";\n\nexport default defineConfig({ actions: "actions" });\n');
  for (let index = 1; index <= count; index++) {
    writeFileSync(join(dir, "actions", `action-${String(index).padStart(4, "0")}.ts`), actionSource(index, count));
  }
  const link = (name: string, target: string) => {
    if (!existsSync(join(dir, "node_modules", name))) symlinkSync(target, join(dir, "node_modules", name), "dir");
  };
  link("herald", REPO_ROOT);
  link("zod", join(REPO_ROOT, "node_modules/zod"));
}
