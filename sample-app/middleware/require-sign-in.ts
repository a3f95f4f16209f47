import { DataSource } from "typeorm";
import { HeraldConfig, injectable, sessionCookieSecurity, type ActionMiddleware, type Connection, type MiddlewareSecurity } from "herald";
import { User } from "../entities/user";
import { notSignedIn, SESSION_USER_ID, type SignedIn } from "../lib/signed-in";

/**
 * Lets an action run only for a signed-in user, and hands it that user as `params.currentUser`.
 * The user is read from the database on every call, so a deleted account is signed out at once.
 */
@injectable()
export class RequireSignIn implements ActionMiddleware {
  readonly security: readonly MiddlewareSecurity[];
  readonly errors = { CONNECTION_NOT_AUTHENTICATED: true };

  constructor(
    config: HeraldConfig,
    private readonly dataSource: DataSource,
  ) {
    this.security = [sessionCookieSecurity(config, "The session cookie `session:create` sets on sign-in.")];
  }

  /**
   * An anonymous caller is refused before the inputs are read: an input that looks a record up
   * (`zUserIdOrModel`) would otherwise query the database for it and tell a missing id (404) from
   * an existing one (401).
   */
  runBeforeInputs(connection: Connection): void {
    signedInUserId(connection);
  }

  async runBefore(params: Record<string, unknown>, connection: Connection): Promise<{ updatedParams: SignedIn<Record<string, unknown>> }> {
    const userId = signedInUserId(connection);
    const currentUser = await this.dataSource.getRepository(User).findOneBy({ id: userId });
    if (!currentUser) {
      await connection.session?.delete(SESSION_USER_ID);
      throw notSignedIn();
    }
    return { updatedParams: { ...params, currentUser } };
  }
}

function signedInUserId(connection: Connection): number {
  const userId = connection.session?.get<number>(SESSION_USER_ID);
  if (typeof userId !== "number") throw notSignedIn();
  return userId;
}
