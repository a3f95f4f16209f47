import { parseSetCookie } from "cookie";
import { SessionCookie, signSessionId, unsignSessionId } from "../../src/sessions/session-cookie";
import { generateSessionId } from "../../src/sessions/session";

const secret = "a-test-secret-of-at-least-32-characters";

describe("signSessionId / unsignSessionId", () => {
  test("a signed id unsigns to itself with the same secret", () => {
    const id = generateSessionId();
    const signed = signSessionId(id, secret);
    expect(signed.startsWith(`${id}.`)).toBe(true);
    expect(unsignSessionId(signed, secret)).toBe(id);
  });

  test("a tampered id, a tampered signature, a missing signature or another secret is rejected", () => {
    const id = generateSessionId();
    const signed = signSessionId(id, secret);
    const signature = signed.slice(id.length + 1);
    const otherId = generateSessionId();
    expect(unsignSessionId(`${otherId}.${signature}`, secret)).toBeUndefined();
    expect(unsignSessionId(`${id}.${signature.slice(0, -1)}x`, secret)).toBeUndefined();
    expect(unsignSessionId(id, secret)).toBeUndefined();
    expect(unsignSessionId(`${id}.`, secret)).toBeUndefined();
    expect(unsignSessionId(signed, `${secret}-rotated`)).toBeUndefined();
    expect(unsignSessionId("", secret)).toBeUndefined();
  });
});

describe("SessionCookie", () => {
  const cookie = new SessionCookie({ name: "herald.sid", secret, maxAgeMs: 86_400_000, secure: false });

  test("sets the signed id, HttpOnly, SameSite=Lax, Path=/, Max-Age = the TTL in seconds", () => {
    const id = generateSessionId();
    const header = cookie.serialize(id);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Path=\//);
    expect(header).toMatch(/; Max-Age=86400(;|$)/);
    expect(header).not.toMatch(/Secure/);
    const { name, value } = parseSetCookie(header);
    expect(name).toBe("herald.sid");
    expect(unsignSessionId(value!, secret)).toBe(id);
  });

  test("is Secure when configured so (in production)", () => {
    const secure = new SessionCookie({ name: "herald.sid", secret, maxAgeMs: 60_000, secure: true });
    expect(secure.serialize(generateSessionId())).toMatch(/; Secure/);
    expect(secure.serializeClear()).toMatch(/; Secure/);
  });

  test("a clearing cookie has the same name and path, an empty value and Max-Age=0", () => {
    const header = cookie.serializeClear();
    const parsed = parseSetCookie(header);
    expect(parsed).toMatchObject({ name: "herald.sid", value: "", path: "/", maxAge: 0, httpOnly: true });
  });

  test("reads the id back from a Cookie header among other cookies", () => {
    const id = generateSessionId();
    const value = parseSetCookie(cookie.serialize(id)).value;
    const header = `theme=dark; herald.sid=${encodeURIComponent(value!)}; lang=en`;
    expect(cookie.read(header)).toEqual({ kind: "signed", id });
  });

  test("tells a missing cookie from a forged one", () => {
    expect(cookie.read(undefined)).toEqual({ kind: "absent" });
    expect(cookie.read("theme=dark")).toEqual({ kind: "absent" });
    expect(cookie.read(`herald.sid=${generateSessionId()}`)).toEqual({ kind: "invalid" });
    const forged = signSessionId(generateSessionId(), "an-attacker-secret-that-is-long-enough");
    expect(cookie.read(`herald.sid=${encodeURIComponent(forged)}`)).toEqual({ kind: "invalid" });
  });
});
