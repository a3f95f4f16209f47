import { DataSource } from "typeorm";
import { z } from "zod";
import { ErrorType, HTTP_METHOD, TypedError, Web, isUniqueViolation, secret, type Action, type ActionParams, type Connection } from "herald";
import { User } from "../entities/user";
import { hashPassword, verifyPassword } from "../lib/passwords";
import { LimitCurrentPassword } from "../middleware/limit-current-password";
import { LimitSignUpsPerAddress } from "../middleware/limit-sign-ups";
import { RequireSignIn } from "../middleware/require-sign-in";
import { serializeUser, serializeUserFor, userFields, userOutputs, zOtherUserSchema, zPublicUserSchema, zUserIdOrModel } from "../schemas/user";

async function checkCurrentPassword(currentPassword: string | undefined, passwordHash: string): Promise<void> {
  if (currentPassword === undefined) {
    throw new TypedError({
      message: "Changing the password needs the current password",
      type: ErrorType.CONNECTION_ACTION_PARAM_REQUIRED,
      key: "currentPassword",
    });
  }
  if (!(await verifyPassword(currentPassword, passwordHash))) {
    throw new TypedError({ message: "The current password is wrong", type: ErrorType.CONNECTION_NOT_AUTHENTICATED, key: "currentPassword" });
  }
}

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
  outputs = userOutputs;
  errors = { CONNECTION_CONFLICT: true };
  middleware = [LimitSignUpsPerAddress];

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
  outputs = z.object({ user: z.union([zPublicUserSchema, zOtherUserSchema]).describe("The user; the e-mail address only on your own") });
  // zUserIdOrModel's: no user with this id.
  errors = { CONNECTION_NOT_FOUND: z.number().int().describe("The id no user has") };
  middleware = [RequireSignIn];
  mcp = { tool: false };

  async run(params: ActionParams<UserView>) {
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
    currentPassword: secret(z.string().min(1).max(256).describe("Your password as it is now: required to change it")).optional(),
  });
  outputs = userOutputs;
  errors = { CONNECTION_CONFLICT: true, CONNECTION_NOT_AUTHENTICATED: true, CONNECTION_ACTION_PARAM_REQUIRED: true };
  middleware = [RequireSignIn, LimitCurrentPassword];
  mcp = { tool: false };

  constructor(private readonly dataSource: DataSource) {}

  async run(params: ActionParams<UserEdit>, connection: Connection) {
    const user = params.currentUser;
    // Whoever holds a stolen session must not be able to lock the owner out.
    if (params.password !== undefined) await checkCurrentPassword(params.currentPassword, user.password_hash);
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
    if (params.password !== undefined && connection.session) {
      // A new password retires the session id it was changed under, as a sign-in does, and signs
      // out every other session of the user: one of them may be the reason for the change.
      await connection.session.regenerate();
      await connection.session.destroyOthersOf(user.id);
    }
    return { user: serializeUser(user) };
  }
}
