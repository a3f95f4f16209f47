import type { DependencyContainer } from "tsyringe";
import { CHANNEL_NAME_PATTERN } from "../core/constants";
import { ErrorType, TypedError } from "../core/errors";
import { sourceOf } from "../core/loader";
import { ChannelDefinition, ChannelMiddleware, ChannelMiddlewareReference, isChannelLike } from "./channel";

/** A loaded channel with its middleware resolved to instances. */
export interface RegisteredChannel {
  readonly definition: ChannelDefinition;
  readonly middleware: readonly ChannelMiddleware[];
  readonly source: string;
}

/**
 * The app's channels, and which one a concrete channel name belongs to: the channel with exactly
 * that name, else the first (in load order) whose RegExp matches it.
 */
export class ChannelRegistry {
  private readonly byName = new Map<string, RegisteredChannel>();
  private readonly patterns: { pattern: RegExp; entry: RegisteredChannel }[] = [];

  constructor(private readonly container: DependencyContainer) {}

  add(candidate: unknown, source = sourceOf(candidate as object) ?? "(registered by code)"): RegisteredChannel {
    if (!isChannelLike(candidate)) {
      throw new TypedError({
        message: `${source} exports a class that is not a channel: it needs a "name", a string or a RegExp`,
        type: ErrorType.SERVER_INITIALIZATION,
      });
    }
    const entry: RegisteredChannel = {
      definition: candidate,
      middleware: (candidate.middleware ?? []).map((reference) => this.resolveMiddleware(reference)),
      source,
    };
    const { name } = candidate;
    if (typeof name === "string") {
      if (!CHANNEL_NAME_PATTERN.test(name)) {
        throw new TypedError({
          message: `Channel "${name}" in ${source} has an invalid name: use 1 to 200 letters, digits, ":", ".", "_" or "-"`,
          type: ErrorType.SERVER_INITIALIZATION,
          key: "name",
          value: name,
        });
      }
      const owner = this.byName.get(name);
      if (owner) {
        throw new TypedError({
          message: `Channel "${name}" is defined twice: in ${owner.source} and in ${source}`,
          type: ErrorType.SERVER_INITIALIZATION,
          key: "name",
          value: name,
        });
      }
      this.byName.set(name, entry);
    } else {
      // Without the stateful flags, `test` does not depend on the previous call.
      this.patterns.push({ pattern: new RegExp(name.source, name.flags.replace(/[gy]/g, "")), entry });
    }
    return entry;
  }

  match(channel: string): RegisteredChannel | undefined {
    return this.byName.get(channel) ?? this.patterns.find(({ pattern }) => pattern.test(channel))?.entry;
  }

  list(): RegisteredChannel[] {
    return [...this.byName.values(), ...this.patterns.map(({ entry }) => entry)];
  }

  private resolveMiddleware(reference: ChannelMiddlewareReference): ChannelMiddleware {
    return typeof reference === "function" ? this.container.resolve(reference) : reference;
  }
}
