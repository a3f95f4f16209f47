import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SelfSignedCertificate {
  readonly certFile: string;
  readonly keyFile: string;
  /** The settings that make a test server serve HTTPS with it. */
  readonly env: { HTTP_TLS_CERT_FILE: string; HTTP_TLS_KEY_FILE: string };
}

/**
 * A certificate for 127.0.0.1, signed by its own key, written before the enclosing block's tests
 * into a directory of its own and removed after them.
 */
export function useSelfSignedCertificate(): SelfSignedCertificate {
  let directory: string | undefined;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), "herald-tls-"));
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
      "-addext", "subjectAltName=IP:127.0.0.1",
      "-keyout", join(directory, "key.pem"), "-out", join(directory, "cert.pem"),
    ], { stdio: "ignore" });
  });
  afterAll(() => {
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  });

  const file = (name: string): string => {
    if (directory === undefined) throw new Error("The certificate is only written once beforeAll has run");
    return join(directory, name);
  };
  return {
    get certFile() {
      return file("cert.pem");
    },
    get keyFile() {
      return file("key.pem");
    },
    get env() {
      return { HTTP_TLS_CERT_FILE: file("cert.pem"), HTTP_TLS_KEY_FILE: file("key.pem") };
    },
  };
}
