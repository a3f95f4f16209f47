/**
 * Who signed in, as clients know them: the user's id from the sign-in action's result, the
 * account of the grant and the `sub` of its tokens, the same at every sign-in of that user;
 * never the session's id, which is a credential.
 */

/** Reads the user's id from what the sign-in action returned. */
export type SubjectPicker = (result: unknown) => string | number | undefined;

/** The result's `user.id`, else its `id`: what a sign-in action that returns the user carries. */
export const defaultSubject: SubjectPicker = (result) => {
  const record = result as { user?: { id?: unknown }; id?: unknown } | null | undefined;
  const id = record?.user?.id ?? record?.id;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
};

/** The subject as a non-empty string, or undefined when the result names no user. */
export function subjectOf(result: unknown, pick: SubjectPicker = defaultSubject): string | undefined {
  const id = pick(result);
  return id === undefined || id === "" ? undefined : String(id);
}
