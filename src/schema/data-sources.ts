import type { DataSource, EntityTarget, ObjectLiteral } from "typeorm";
import { ErrorType, TypedError } from "../core/errors";

/**
 * The TypeORM data sources that input schemas may query while they parse. A zod transform runs
 * with no server or container at hand, so the app's database initializer registers its
 * DataSource here once it is connected, and forgets it when it closes.
 */
const registered: DataSource[] = [];

/** Makes `dataSource` available to `zIdOrModel`; returns the function that unregisters it. */
export function registerDataSource(dataSource: DataSource): () => void {
  registered.push(dataSource);
  return () => {
    const index = registered.lastIndexOf(dataSource);
    if (index >= 0) registered.splice(index, 1);
  };
}

export function entityNameOf(entity: EntityTarget<ObjectLiteral>): string {
  if (typeof entity === "function") return entity.name;
  if (typeof entity === "string") return entity;
  return "name" in entity ? String(entity.name) : "entity";
}

/**
 * The most recently registered, initialized DataSource that knows `entity`. Several servers in
 * one process (two test servers, say) each register theirs; the newest one wins.
 */
export function dataSourceFor(entity: EntityTarget<ObjectLiteral>): DataSource {
  for (let index = registered.length - 1; index >= 0; index--) {
    const candidate = registered[index]!;
    if (candidate.isInitialized && candidate.hasMetadata(entity)) return candidate;
  }
  throw new TypedError({
    message: `No initialized DataSource holds the entity ${entityNameOf(entity)}: register it with registerDataSource(dataSource) once it is connected`,
    type: ErrorType.CONNECTION_SERVER_ERROR,
  });
}
