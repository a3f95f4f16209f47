import { serverUrl } from "herald/testing";
import { createUser } from "../../sample-app/support/app";
import { authorize, pkcePair, REDIRECT_URI, registerClient, tokenRequest } from "./oauth-flow";

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
const PARALLEL = 20;

/** Exactly one of many redemptions of one code sent together wins, at most one rotation of one refresh token; the others are invalid_grant. */
export function describeParallelRedemption(): void {
  let clientId: string;
  let code: string;
  let verifier: string;
  beforeAll(async () => {
    await createUser(ada);
    const base = serverUrl();
    clientId = await registerClient(base);
    const pair = pkcePair();
    verifier = pair.verifier;
    const redirect = (await authorize({ base, clientId, challenge: pair.challenge, credentials: { email: ada.email, password: ada.password } })) as URL;
    code = redirect.searchParams.get("code")!;
  });

  test(`${PARALLEL} redemptions of one code sent together: exactly one gets tokens, the others invalid_grant; at most one rotation of its refresh token`, async () => {
    const redemptions = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        tokenRequest(serverUrl(), { grant_type: "authorization_code", code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT_URI }),
      ),
    );
    const won = redemptions.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    expect(redemptions.filter((answer) => answer.status === 400 && answer.body.error === "invalid_grant")).toHaveLength(PARALLEL - 1);

    const refreshToken = won[0]!.body.refresh_token as string;
    const refreshes = await Promise.all(
      Array.from({ length: PARALLEL }, () => tokenRequest(serverUrl(), { grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId })),
    );
    // A refresh token used twice ends its grant: the one rotation that won may be revoked by a reuse seen after it.
    expect(refreshes.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(1);
    expect(refreshes.filter((answer) => answer.status === 400 && answer.body.error === "invalid_grant").length).toBeGreaterThanOrEqual(PARALLEL - 1);
  });
}
