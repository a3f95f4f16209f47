import type { SecurityRequirementObject, SecuritySchemeObject } from "openapi3-ts/oas31";
import { ErrorType, TypedError } from "../core/errors";
import type { ActionMiddleware, MiddlewareSecurity } from "../core/middleware";

/**
 * The operation's security requirement: every guarding middleware must be satisfied (the names of
 * one alternative are ANDed), each with any one of its credentials (the alternatives are ORed).
 * An operation no middleware guards gets `[]`: public, said explicitly.
 */
export function securityRequirement(chain: readonly ActionMiddleware[]): SecurityRequirementObject[] {
  let alternatives: SecurityRequirementObject[] = [{}];
  for (const middleware of chain) {
    const accepted = middleware.security ?? [];
    if (!accepted.length) continue;
    alternatives = alternatives.flatMap((alternative) => accepted.map((credential) => ({ ...alternative, [credential.name]: [] })));
  }
  return alternatives.filter((alternative) => Object.keys(alternative).length > 0);
}

/** Every scheme the middleware accept, by name; two different schemes under one name are refused. */
export function securitySchemes(chains: Iterable<readonly ActionMiddleware[]>): Record<string, SecuritySchemeObject> {
  const schemes: Record<string, SecuritySchemeObject> = {};
  const declared = new Map<string, MiddlewareSecurity>();
  for (const chain of chains) {
    for (const declaration of chain.flatMap((middleware) => middleware.security ?? [])) {
      const earlier = declared.get(declaration.name);
      if (earlier && JSON.stringify(earlier.scheme) !== JSON.stringify(declaration.scheme)) {
        throw new TypedError({
          message: `Two middleware declare different security schemes under the name "${declaration.name}"`,
          type: ErrorType.SERVER_INITIALIZATION,
          key: "security",
          value: declaration.name,
        });
      }
      declared.set(declaration.name, declaration);
      schemes[declaration.name] = { ...declaration.scheme };
    }
  }
  return Object.fromEntries(Object.entries(schemes).sort(([a], [b]) => (a < b ? -1 : 1)));
}
