import type { OAuthStorage } from "../../src/auth/storage";

/** What oidc-provider asks of its adapter, for every storage driver alike. */
export function describeOAuthStorageContract(label: string, open: () => Promise<OAuthStorage>): void {
  describe(`${label}: the authorization server's storage contract`, () => {
    let storage: OAuthStorage;
    beforeAll(async () => {
      storage = await open();
    });
    afterAll(() => storage.close());

    const id = () => `id-${Math.random().toString(36).slice(2)}`;

    test("finds what was upserted, by id and per model", async () => {
      const key = id();
      await storage.adapter("AccessToken").upsert(key, { jti: key, accountId: "a", grantId: "g1", exp: 1 }, 60);
      await expect(storage.adapter("AccessToken").find(key)).resolves.toEqual({ jti: key, accountId: "a", grantId: "g1", exp: 1 });
      await expect(storage.adapter("RefreshToken").find(key)).resolves.toBeUndefined();
      await expect(storage.adapter("AccessToken").find(id())).resolves.toBeUndefined();
    });

    test("an upsert replaces the record", async () => {
      const key = id();
      const clients = storage.adapter("Client");
      await clients.upsert(key, { client_id: key, client_name: "one" });
      await clients.upsert(key, { client_id: key, client_name: "two" });
      await expect(clients.find(key)).resolves.toEqual({ client_id: key, client_name: "two" });
    });

    test("consume marks a record consumed, with the time", async () => {
      const key = id();
      const codes = storage.adapter("AuthorizationCode");
      await codes.upsert(key, { jti: key, grantId: "g2" }, 60);
      await codes.consume(key);
      await expect(codes.find(key)).resolves.toEqual({ jti: key, grantId: "g2", consumed: expect.any(Number) });
    });

    test("consume marks a record once: of 20 at once exactly one succeeds, and a record that is gone cannot be consumed", async () => {
      const key = id();
      const codes = storage.adapter("AuthorizationCode");
      await codes.upsert(key, { jti: key, grantId: "g3" }, 60);
      const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => codes.consume(key)));
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      const refusals = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
      expect(refusals.map((refusal) => (refusal.reason as { error?: string }).error)).toEqual(Array(19).fill("invalid_grant"));
      await expect(codes.consume(id())).rejects.toMatchObject({ error: "invalid_grant" });
      await expect(codes.find(id())).resolves.toBeUndefined();
    });

    test("destroy forgets a record", async () => {
      const key = id();
      const tokens = storage.adapter("AccessToken");
      await tokens.upsert(key, { jti: key }, 60);
      await tokens.destroy(key);
      await expect(tokens.find(key)).resolves.toBeUndefined();
    });

    test("an interaction session is found by its uid, and a device code by its user code", async () => {
      const session = id();
      const uid = id();
      await storage.adapter("Session").upsert(session, { jti: session, uid }, 60);
      await expect(storage.adapter("Session").findByUid(uid)).resolves.toEqual({ jti: session, uid });
      await expect(storage.adapter("Session").findByUid(id())).resolves.toBeUndefined();
      const device = id();
      await storage.adapter("DeviceCode").upsert(device, { jti: device, userCode: "ABCD-EFGH" }, 60);
      await expect(storage.adapter("DeviceCode").findByUserCode("ABCD-EFGH")).resolves.toEqual({ jti: device, userCode: "ABCD-EFGH" });
    });

    test("revokeByGrantId deletes its own model's records of the grant, and nothing else", async () => {
      const grantId = id();
      const [access, refresh, other] = [id(), id(), id()];
      await storage.adapter("AccessToken").upsert(access, { jti: access, grantId }, 60);
      await storage.adapter("RefreshToken").upsert(refresh, { jti: refresh, grantId }, 60);
      await storage.adapter("AccessToken").upsert(other, { jti: other, grantId: id() }, 60);
      await storage.adapter("AccessToken").revokeByGrantId(grantId);
      await expect(storage.adapter("AccessToken").find(access)).resolves.toBeUndefined();
      await expect(storage.adapter("RefreshToken").find(refresh)).resolves.toEqual({ jti: refresh, grantId });
      await expect(storage.adapter("AccessToken").find(other)).resolves.toEqual({ jti: other, grantId: expect.any(String) });
      await storage.adapter("RefreshToken").revokeByGrantId(grantId);
      await expect(storage.adapter("RefreshToken").find(refresh)).resolves.toBeUndefined();
    });
  });
}
