import { HeraldClientError, type HeraldClient } from "herald/client";
import type { AppActions } from "../../../sample-app/herald-client";

type NewUser = AppActions["user:create"]["params"];

/**
 * user:create's errors, as any transport gives them: a password too short (422, with its issue)
 * and an e-mail address taken (409), each a HeraldClientError that `errorOf` narrows for
 * user:create only. `create` calls user:create the way under test.
 */
export async function expectUserCreateErrors(client: HeraldClient<AppActions>, create: (user: NewUser) => Promise<unknown>, user: NewUser): Promise<void> {
  const invalid = await create({ ...user, password: "short" }).catch((error: unknown) => error);
  expect(invalid).toBeInstanceOf(HeraldClientError);
  const typed = client.errorOf("user:create", invalid);
  expect(typed).toMatchObject({ action: "user:create", status: 422, type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "password" });
  expect(typed!.issues).toEqual([expect.objectContaining({ path: ["password"], code: "too_small" })]);
  // Another action's name does not narrow it.
  expect(client.errorOf("session:create", invalid)).toBeUndefined();

  await create(user);
  const taken = client.errorOf("user:create", await create(user).catch((error: unknown) => error));
  expect(taken).toMatchObject({ status: 409, type: "CONNECTION_CONFLICT", key: "email" });
}
