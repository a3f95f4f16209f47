import { DataSource } from "typeorm";
import { z } from "zod";
import { ErrorType, HTTP_METHOD, TypedError, Web, type Action, type ActionParams, type Connection } from "herald";
import { isUniqueViolation } from "../db/errors";
import { User } from "../entities/user";
import { hashPassword } from "../lib/passwords";
import type { SignedIn } from "../lib/signed-in";
import { RequireSignIn } from "../middleware/require-sign-in";
import { serializeUser, serializeUserFor, userFields, zUserIdOrModel } from "../schemas/user";

function emailTaken(cause: unknown): TypedError {
  return new TypedError({
    message: "A user with this e-mail address already exists",
    type: ErrorType.CONNECTION_CONFLICT,
    key: "email",
    cause,
  });
}

@Web({ route: "/user", method: HTTP_METHOD.PUT })
export class UserCreate implements Action {
  name = "user:create";
  description = "Sign up: create a user with a name, an e-mail address and a password";
  inputs = z.object(userFields);

  constructor(private readonly dataSource: DataSource) {}

  async run(params: ActionParams<UserCreate>) {
    const users = this.dataSource.getRepository(User);
    const password_hash = await hashPassword(params.password);
    try {
      // One INSERT needs no transaction; under PGlite all connections share one session, so
      // TypeORM's wrapping transaction would mix with concurrent requests.
      const user = await users.save(users.create({ name: params.name, email: params.email, password_hash }), {
        transaction: false,
      });
      return { user: serializeUser(user) };
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken(error);
      throw error;
    }
  }
}

@Web({ route: "/user/:user", method: HTTP_METHOD.GET })
export class UserView implements Action {
  name = "user:view";
  description = "A user's profile, by id; the e-mail address only on your own";
  inputs = z.object({
    user: zUserIdOrModel().describe("The user's id"),
  });
  middleware = [RequireSignIn];
  mcp = { tool: false };

  async run(params: SignedIn<ActionParams<UserView>>) {
    return { user: serializeUserFor(params.user, params.currentUser.id) };
  }
}

@Web({ route: "/user", method: HTTP_METHOD.POST })
export class UserEdit implements Action {
  name = "user:edit";
  description = "Change your own name, e-mail address or password";
  inputs = z.object({
    name: userFields.name.optional(),
    email: userFields.email.optional(),
    password: userFields.password.optional(),
  });
  middleware = [RequireSignIn];
  mcp = { tool: false };

  constructor(private readonly dataSource: DataSource) {}

  async run(params: SignedIn<ActionParams<UserEdit>>, connection?: Connection) {
    const user = params.currentUser;
    if (params.name !== undefined) user.name = params.name;
    if (params.email !== undefined) user.email = params.email;
    if (params.password !== undefined) user.password_hash = await hashPassword(params.password);
    try {
      // A single UPDATE: see user:create for why no wrapping transaction.
      await this.dataSource.getRepository(User).save(user, { transaction: false });
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken(error);
      throw error;
    }
    // A new password retires the session id it was changed under, as a sign-in does.
    if (params.password !== undefined) await connection?.session?.regenerate();
    return { user: serializeUser(user) };
  }
}
