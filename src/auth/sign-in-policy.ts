import type { interactionPolicy as InteractionPolicy, KoaContextWithOIDC } from "oidc-provider" with { "resolution-mode": "import" };

/**
 * oidc-provider's prompts, with one more reason to show the sign-in page: no grant of a live
 * Herald session for this client. A grant's id is the session its sign-in filled (the account is
 * the user, whom many sessions may sign in), so a browser that signed in once for one client
 * still signs in again for another, and a grant whose session has ended asks for a new sign-in.
 */
export function signInPolicy(policy: typeof InteractionPolicy, sessionAlive: (sessionId: string) => Promise<boolean>): InteractionPolicy.Prompt[] {
  const { base, Check } = policy;
  const prompts = base();
  prompts.get("login")!.checks.add(
    new Check("herald_session", "A sign-in is needed for this client", async (ctx: KoaContextWithOIDC) => {
      const grantId = ctx.oidc.grant?.jti;
      return grantId && (await sessionAlive(grantId)) ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT;
    }),
  );
  return prompts;
}
