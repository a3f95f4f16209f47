import { DataSource } from "typeorm";
import { z } from "zod";
import { ErrorType, HTTP_METHOD, TypedError, Web, secret, type Action, type ActionParams, type Connection } from "herald";
import { User } from "../entities/user";
import { checkCredentials } from "../lib/credentials";
import { SESSION_USER_ID, sessionOf } from "../lib/signed-in";
import { LimitSignInsPerAccount, LimitSignInsPerAddress } from "../middleware/limit-sign-ins";
import { RequireSignIn } from "../middleware/require-sign-in";
import { serializeUser, userOutputs } from "../schemas/user";

/**
 * MCP clients carry no session cookie: they sign in through the OAuth sign-in page, which runs
 * session:create, and never call the session actions themselves; session:view, which tells a
 * signed-in client who it acts for, excepted.
 */
const NOT_AN_MCP_TOOL = { tool: false };

@Web({ route: "/session", method: HTTP_METHOD.PUT })
export class SessionCreate implements Action {
  name = "session:create";
  description = "Sign in with an e-mail address and a password";
  inputs = z.object({
    email: z.email().max(320).describe("The account's e-mail address"),
    password: secret(z.string().min(1).max(256).describe("The account's password")),
  });
  outputs = userOutputs;
  // A wrong password; no session to sign in (a transport without cookies).
  errors = { CONNECTION_NOT_AUTHENTICATED: true, CONNECTION_SESSION_NOT_FOUND: true };
  middleware = [LimitSignInsPerAddress, LimitSignInsPerAccount];
  mcp = NOT_AN_MCP_TOOL;

  constructor(private readonly dataSource: DataSource) {}

  async run(params: ActionParams<SessionCreate>, connection: Connection) {
    const session = sessionOf(connection);
    const user = await checkCredentials(this.dataSource.getRepository(User), params.email, params.password);
    if (!user) {
      // One message for both mistakes: which one it was would tell that the address has an account.
      throw new TypedError({ message: "Wrong e-mail address or password", type: ErrorType.CONNECTION_NOT_AUTHENTICATED });
    }
    // A new id at sign-in: an id someone planted or saw before it is worthless after it.
    await session.regenerate();
    await session.set(SESSION_USER_ID, user.id);
    // Recorded as the user's, so that a password change can end it (user:edit).
    await session.own(user.id);
    return { user: serializeUser(user) };
  }
}

@Web({ route: "/session", method: HTTP_METHOD.GET })
export class SessionView implements Action {
  name = "session:view";
  description = "The signed-in user";
  // Declared, though empty, so that the compiler checks run's params, currentUser included.
  inputs = z.object({});
  outputs = userOutputs;
  // Declared, though none are its own, so that any other error it ends with is logged as a contract breach.
  errors = {};
  middleware = [RequireSignIn];

  async run(params: ActionParams<SessionView>) {
    return { user: serializeUser(params.currentUser) };
  }
}

@Web({ route: "/session", method: HTTP_METHOD.DELETE })
export class SessionDestroy implements Action {
  name = "session:destroy";
  description = "Sign out; signing out when not signed in is not an error";
  outputs = z.object({ signedOut: z.literal(true) });
  // Declared, though none are its own, so that any other error it ends with is logged as a contract breach.
  errors = {};
  mcp = NOT_AN_MCP_TOOL;

  async run(_params: ActionParams<SessionDestroy>, connection: Connection) {
    await connection.session?.destroy();
    return { signedOut: true as const };
  }
}
