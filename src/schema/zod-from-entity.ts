import { z } from "zod";
import { ErrorType, TypedError } from "../core/errors";
import { columnSchema } from "./column-schema";
import { internal } from "./internal";
import { secret } from "../core/secret";

type Scalar = string | number | boolean | bigint | Date | Buffer;
type IsColumnValue<V> = [NonNullable<V>] extends [never]
  ? false
  : NonNullable<V> extends Scalar
    ? true
    : NonNullable<V> extends readonly (infer Item)[]
      ? NonNullable<Item> extends Scalar
        ? true
        : false
      : false;

/**
 * The properties of an entity that hold column values. Relations, methods and object-typed JSON
 * columns are left out of the static type (a JSON column is still in the runtime schema).
 */
export type ColumnKeys<E> = {
  [K in keyof E]-?: IsColumnValue<E[K]> extends true ? K : never;
}[keyof E] &
  string;

/** A zod object schema for the rows of entity `E`. */
export type ModelSchema<E> = z.ZodObject<{ [K in ColumnKeys<E>]: z.ZodType<E[K]> }>;

export interface ZodFromEntityOptions<E> {
  /**
   * Columns holding what only the server may read (a password hash, a token): marked `secret()`, so
   * they are redacted wherever the schema is used as input, and `internal()`, so they never appear
   * in a document (OpenAPI, MCP tool schemas).
   */
  secret?: readonly ColumnKeys<E>[];
  /** Replaces the generated schema of some columns, e.g. a column with a value transformer. */
  overrides?: { [K in ColumnKeys<E>]?: z.ZodType<E[K]> };
}

type EntityClass<E> = abstract new (...args: any[]) => E;

/** The class and its ancestors, whose decorators all describe columns of the entity. */
function lineage(entity: Function): Function[] {
  const targets: Function[] = [];
  for (let target = entity; target && target !== Function.prototype; target = Object.getPrototypeOf(target)) {
    targets.push(target);
  }
  return targets;
}

/**
 * A zod schema generated from a TypeORM entity's column decorators: one field per column, named
 * after its property, typed after its column type, `.nullable()` where the column is nullable.
 * It reads the decorator metadata directly, so it needs no DataSource and can be built when the
 * module loads; adding a column to the entity adds it to the schema.
 */
export function zodFromEntity<E>(entity: EntityClass<E>, options: ZodFromEntityOptions<E> = {}): ModelSchema<E> {
  // Required on use: an app that calls it has TypeORM loaded already, one that does not never loads it through Herald's index.
  const storage = (require("typeorm/globals") as typeof import("typeorm/globals")).getMetadataArgsStorage();
  const targets = lineage(entity);
  const shape: Record<string, z.ZodType> = {};
  for (const column of storage.filterColumns(targets)) {
    const schema = columnSchema(column);
    if (schema) shape[column.propertyName] = schema;
  }
  for (const embedded of storage.filterEmbeddeds(targets)) {
    const inner = zodFromEntity(embedded.type() as EntityClass<unknown>);
    shape[embedded.propertyName] = embedded.isArray ? z.array(inner) : inner;
  }
  if (Object.keys(shape).length === 0) {
    throw new TypedError({
      message: `${entity.name} has no TypeORM columns: zodFromEntity needs a class decorated with @Entity and @Column`,
      type: ErrorType.SERVER_INITIALIZATION,
    });
  }
  for (const key of options.secret ?? []) shape[key] = internal(secret(columnOf(entity, shape, key, "secret")));
  for (const [key, schema] of Object.entries(options.overrides ?? {})) {
    columnOf(entity, shape, key, "overrides");
    shape[key] = schema as z.ZodType;
  }
  return z.object(shape) as unknown as ModelSchema<E>;
}

function columnOf(entity: Function, shape: Record<string, z.ZodType>, key: string, option: string): z.ZodType {
  const schema = shape[key];
  if (!schema) {
    throw new TypedError({
      message: `zodFromEntity(${entity.name}): "${option}" names "${key}", which is not a column of ${entity.name}`,
      type: ErrorType.SERVER_INITIALIZATION,
    });
  }
  return schema;
}
