import type { DependencyContainer } from "tsyringe";
import { decoratedClasses, providersOf } from "./tsyringe-internals";

/** A constructor param as tsyringe records it: a token, or `{ token, multiple }` / `{ token, transform }` around one. */
function tokenOf(param: unknown): unknown {
  return typeof param === "object" && param !== null && "token" in param ? (param as { token: unknown }).token : param;
}

/** What building `token` builds next: the class or token its provider names, or a class's constructor params. */
function nextTokens(container: DependencyContainer, token: unknown, typeInfo: Map<unknown, unknown>): unknown[] {
  const providers = providersOf(container, token);
  if (providers.length > 0) {
    return providers.flatMap((provider) => {
      if (typeof provider !== "object" || provider === null) return [];
      if ("useClass" in provider) return [provider.useClass];
      if ("useToken" in provider) return [provider.useToken];
      // A value is built already, and a factory builds what its code says: neither is seen.
      return [];
    });
  }
  const params = typeof token === "function" ? typeInfo.get(token) : undefined;
  return Array.isArray(params) ? params.map(tokenOf) : [];
}

/**
 * Whether building `type` through `container` builds one of `targets`, directly or through what
 * it takes: by the constructor params tsyringe records and the providers registered in the
 * container and its parents. What a factory builds, what a `delay()` stands for and what code
 * resolves by itself are not seen.
 */
export function buildsAnyOf(container: DependencyContainer, type: unknown, targets: ReadonlySet<unknown>): boolean {
  const typeInfo = decoratedClasses();
  if (!typeInfo) return false;
  const seen = new Set<unknown>();
  const pending = [type];
  while (pending.length > 0) {
    const token = pending.pop();
    if (targets.has(token)) return true;
    if (seen.has(token)) continue;
    seen.add(token);
    pending.push(...nextTokens(container, token, typeInfo));
  }
  return false;
}
