import type { DependencyContainer } from "tsyringe";

/*
 * What Herald reads of tsyringe's internals, in one place: neither map below is part of its API.
 * When a tsyringe release moves them, this file is what changes;
 * test/core/tsyringe-internals.test.ts fails first.
 */

/**
 * tsyringe's map of every decorated class to its constructor's param types (`typeInfo`, in
 * `dist/cjs/dependency-container`), kept for the life of the process; undefined when this
 * tsyringe keeps it elsewhere.
 */
export function decoratedClasses(): Map<unknown, unknown> | undefined {
  let typeInfo: unknown;
  try {
    ({ typeInfo } = require("tsyringe/dist/cjs/dependency-container") as { typeInfo?: unknown });
  } catch {
    return undefined;
  }
  return typeInfo instanceof Map ? typeInfo : undefined;
}

/** A container's registrations by token (`_registry._registryMap`); undefined when this tsyringe keeps them elsewhere. */
export function registrationsOf(container: DependencyContainer): Map<unknown, unknown> | undefined {
  const registrations = (container as unknown as { _registry?: { _registryMap?: unknown } })._registry?._registryMap;
  return registrations instanceof Map ? registrations : undefined;
}

/**
 * The providers (`{ useClass }`, `{ useToken }`, `{ useValue }`, `{ useFactory }`) `token` is
 * registered with in `container`, or in the nearest parent that has it (`getAllRegistrations`);
 * empty when none, or when this tsyringe keeps them elsewhere.
 */
export function providersOf(container: DependencyContainer, token: unknown): unknown[] {
  const lookup = (container as unknown as { getAllRegistrations?(token: unknown): { provider: unknown }[] | null }).getAllRegistrations;
  if (typeof lookup !== "function") return [];
  return lookup.call(container, token)?.map((registration) => registration.provider) ?? [];
}
