/**
 * The cookies a server set, kept for the next calls where no browser keeps them (Node.js): the
 * session cookie above all. A browser keeps its own and hides `Set-Cookie` from scripts, so there
 * this stays empty and sends nothing.
 */
export class SessionCookies {
  private readonly cookies = new Map<string, string>();

  /** Reads the response's `Set-Cookie` headers: a cookie set again replaces the old, an expired one is dropped. */
  take(headers: Headers): void {
    const setCookies = typeof headers.getSetCookie === "function" ? headers.getSetCookie() : [];
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";");
      const equals = pair.indexOf("=");
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      if (attributes.some(expires)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The `Cookie` header to send, or undefined when none is kept. */
  header(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  clear(): void {
    this.cookies.clear();
  }
}

function expires(attribute: string): boolean {
  const [rawName = "", rawValue = ""] = attribute.split("=");
  const name = rawName.trim().toLowerCase();
  if (name === "max-age") return Number(rawValue.trim()) <= 0;
  if (name === "expires") return Date.parse(rawValue.trim()) <= Date.now();
  return false;
}
