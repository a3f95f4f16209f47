import { spawn } from "node:child_process";
import { join } from "node:path";

export interface ValidationResult {
  valid: boolean;
  errors?: unknown;
}

// The validator is an ES module, which Jest's CommonJS runtime cannot load: it runs in plain Node.
const SCRIPT = `
import { Validator } from "@seriousme/openapi-schema-validator";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const result = await new Validator().validate(JSON.parse(input));
process.stdout.write(JSON.stringify(result));
`;

/** Validates an OpenAPI document with @seriousme/openapi-schema-validator. */
export function validateOpenApi(document: object): Promise<ValidationResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", SCRIPT], {
      cwd: join(__dirname, "../../.."),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`validator exited with ${code}: ${stderr}`));
      resolve(JSON.parse(stdout) as ValidationResult);
    });
    child.stdin.end(JSON.stringify(document));
  });
}
