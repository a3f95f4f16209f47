import { z } from "zod";
import { secret } from "herald";
import { isSecretPath, redactSecrets } from "../../src/core/secret";

interface TreeNode {
  label: string;
  token?: string;
  children: TreeNode[];
}

describe("redactSecrets", () => {
  test("a schema without a secret gives the value back as it is", () => {
    const schema = z.object({ message: z.string(), nested: z.object({ list: z.array(z.number()) }).optional() });
    const value = { message: "hello", nested: { list: [1, 2] } };
    expect(redactSecrets(schema, value)).toBe(value);
  });

  test("a secret in a schema it has already seen is still redacted on every call", () => {
    const schema = z.object({ name: z.string(), auth: z.object({ token: secret(z.string()) }).optional() });
    for (const token of ["first", "second"]) {
      expect(redactSecrets(schema, { name: "Ada", auth: { token } })).toEqual({ name: "Ada", auth: { token: "[[secret]]" } });
    }
    expect(redactSecrets(schema.shape.name, "Ada")).toBe("Ada");
  });

  test("a recursive schema with a secret, reached through a getter, is redacted at every level", () => {
    const Node: z.ZodType<TreeNode> = z.object({
      label: z.string(),
      token: secret(z.string()).optional(),
      get children() {
        return z.array(Node);
      },
    });
    const tree = { label: "root", token: "a", children: [{ label: "leaf", token: "b", children: [] }] };
    expect(redactSecrets(Node, tree)).toEqual({
      label: "root",
      token: "[[secret]]",
      children: [{ label: "leaf", token: "[[secret]]", children: [] }],
    });
  });

  test("a schema whose secret is reached only back through a cycle is redacted too", () => {
    // Walking "wrapper" first meets "inner", whose only way to a secret leads back to "wrapper".
    const wrapper: z.ZodType = z.object({
      get inner() {
        return inner;
      },
      password: secret(z.string()).optional(),
    });
    const inner: z.ZodType = z.object({
      get outer() {
        return wrapper.optional();
      },
    });
    expect(redactSecrets(wrapper, { inner: { outer: { password: "p" } }, password: "q" })).toEqual({
      inner: { outer: { password: "[[secret]]" } },
      password: "[[secret]]",
    });
    expect(redactSecrets(inner, { outer: { password: "p" } })).toEqual({ outer: { password: "[[secret]]" } });
  });

  test("isSecretPath still names secret fields and only those", () => {
    const schema = z.object({ user: z.object({ password: secret(z.string()), name: z.string() }) });
    redactSecrets(schema, { user: { password: "p", name: "n" } });
    expect(isSecretPath(schema, ["user", "password"])).toBe(true);
    expect(isSecretPath(schema, ["user", "name"])).toBe(false);
  });
});
