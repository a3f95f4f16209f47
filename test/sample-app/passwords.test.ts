import { hashPassword, verifyPassword } from "../../sample-app/lib/passwords";

describe("password hashing (scrypt from node:crypto)", () => {
  test("a hash verifies its password and no other", async () => {
    const hash = await hashPassword("correct horse battery staple");
    await expect(verifyPassword("correct horse battery staple", hash)).resolves.toBe(true);
    await expect(verifyPassword("correct horse battery stapler", hash)).resolves.toBe(false);
    await expect(verifyPassword("", hash)).resolves.toBe(false);
  });

  test("each hash has its own salt, and carries its cost parameters", async () => {
    const [one, two] = await Promise.all([hashPassword("same password"), hashPassword("same password")]);
    expect(one).not.toBe(two);
    expect(one.split("$").slice(0, 4)).toEqual(["scrypt", "16384", "8", "1"]);
    await expect(verifyPassword("same password", two)).resolves.toBe(true);
  });

  test("treats canonically equivalent Unicode spellings as the same password", async () => {
    const hash = await hashPassword("caf\u00e9 au lait");
    await expect(verifyPassword("cafe\u0301 au lait", hash)).resolves.toBe(true);
  });

  test.each([["not a hash"], ["bcrypt$10$abc$def"], ["scrypt$16384$8$1$$"], ["scrypt$3$8$1$c2FsdA==$a2V5"], [""]])("a malformed stored hash %p never verifies", async (stored) => {
    await expect(verifyPassword("anything", stored)).resolves.toBe(false);
  });
});
