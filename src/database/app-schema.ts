import { getMetadataArgsStorage } from "typeorm";
import { loadExportedClasses } from "../core/loader";
import type { AppSchema } from "./data-source";

/** Where the app keeps its entities and migrations: absolute folders. */
export interface DatabaseFolders {
  entities: string;
  migrations: string;
}

/**
 * The entity classes and migrations the app's folders export. Placing a file there is enough, as
 * for actions: `herald migrate generate` and `herald generate resource` edit no list. A class
 * without `@Entity` (an embedded column group, a helper) is not an entity, and a migration is a
 * class with `up` and `down`.
 */
export function loadAppSchema(folders: DatabaseFolders): AppSchema {
  const exported = distinct(loadExportedClasses(folders.entities).map(({ type }) => type));
  // Read after loading: the decorators record the tables as the files load.
  const tables = new Set(getMetadataArgsStorage().tables.map((table) => table.target));
  const entities = exported.filter((type) => tables.has(type));
  const migrations = distinct(loadExportedClasses(folders.migrations).map(({ type }) => type)).filter(isMigration);
  return { entities, migrations };
}

function isMigration(type: Function): boolean {
  const prototype = type.prototype as { up?: unknown; down?: unknown };
  return typeof prototype.up === "function" && typeof prototype.down === "function";
}

/** A class re-exported by an index file is loaded once. */
function distinct<T>(values: T[]): T[] {
  return [...new Set(values)];
}
