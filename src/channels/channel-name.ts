import { CHANNEL_NAME_PATTERN } from "../core/constants";
import { ErrorType, TypedError } from "../core/errors";

/** The name as a string when it is a valid channel name; CONNECTION_CHANNEL_VALIDATION otherwise. */
export function checkChannelName(name: unknown): string {
  if (typeof name === "string" && CHANNEL_NAME_PATTERN.test(name)) return name;
  throw new TypedError({
    message:
      typeof name === "string"
        ? `Invalid channel name: use 1 to 200 letters, digits, ":", ".", "_" or "-"`
        : "A channel name (a string) is required",
    type: ErrorType.CONNECTION_CHANNEL_VALIDATION,
    key: "channel",
    ...(typeof name === "string" ? { value: name.slice(0, 200) } : {}),
  });
}
