import { tokenFor } from "../token-for";

export interface MigrationStatus {
  applied: string[];
  pending: string[];
}

/**
 * The app's schema migrations, as the `herald migrate` commands drive them. The framework has no
 * database of its own: an app's database initializer registers its implementation under this
 * token (see docs/database.md).
 */
export abstract class Migrator {
  /** Applies every pending migration; returns their names. */
  abstract run(): Promise<string[]>;
  /** Undoes the most recent migration; returns its name, or undefined when none is applied. */
  abstract revert(): Promise<string | undefined>;
  /** Writes a migration from the difference between the entities and the database; returns the files written (none when nothing differs). */
  abstract generate(name: string, options?: { directory?: string }): Promise<string[]>;
  abstract status(): Promise<MigrationStatus>;
}

export const MIGRATOR = tokenFor(Migrator);
