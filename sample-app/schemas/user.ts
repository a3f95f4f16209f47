import { z } from "zod";
import { secret, zIdOrModel, zodFromEntity } from "herald";
import { User } from "../entities/user";
import { storableText } from "./text";

/** A user row, generated from the entity's columns. */
export const zUserSchema = zodFromEntity(User, { secret: ["password_hash"] });
export type UserModel = z.output<typeof zUserSchema>;

/** What a user sees of their own account: every column except the password hash. */
export const zPublicUserSchema = zUserSchema.omit({ password_hash: true });
export type PublicUser = z.output<typeof zPublicUserSchema>;

/** What everyone else sees of a user: the e-mail address is the owner's business. */
export const zOtherUserSchema = zPublicUserSchema.omit({ email: true });
export type OtherUser = z.output<typeof zOtherUserSchema>;

/** What the actions that answer with the caller's own account return. */
export const userOutputs = z.object({ user: zPublicUserSchema });

/** The user as its owner sees it. */
export function serializeUser(user: UserModel): PublicUser {
  return zPublicUserSchema.parse(user); // zod objects drop unknown keys: nothing else leaks
}

/** The user as `viewerId` sees it: with the e-mail address only when it is the viewer's own. */
export function serializeUserFor(user: UserModel, viewerId: number): PublicUser | OtherUser {
  return user.id === viewerId ? serializeUser(user) : zOtherUserSchema.parse(user);
}

function isUser(value: unknown): value is UserModel {
  return typeof value === "object" && value !== null;
}

/** A user id (loaded from the database) or a user model (passed through). */
export function zUserIdOrModel() {
  return zIdOrModel(User, zUserSchema, isUser, "User");
}

/** The account fields as inputs, shared by sign-up and `user:edit`. */
export const userFields = {
  name: storableText().trim().min(3).max(100).describe("Display name, 3 to 100 characters"),
  email: z.email().max(320).toLowerCase().describe("E-mail address, unique among users"),
  password: secret(z.string().min(8).max(256).describe("Password, at least 8 characters")),
};
