import type { DataSource, EntityTarget, ObjectLiteral } from "typeorm";
import { z } from "zod";
import { ErrorType, TypedError } from "../core/errors";
import { overrideJsonSchema } from "../core/zod-internals";
import { dataSourceFor } from "./data-sources";

export interface IdOrModelOptions {
  /** Where to look the id up; by default the DataSource registered with `registerDataSource`. */
  dataSource?: DataSource | (() => DataSource);
}

/** A positive integer id, as a number or as the digits of a query string or a CLI flag. */
const zId = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^[1-9]\d*$/, "Expected a positive integer id")
    .transform(Number)
    .pipe(z.number().max(Number.MAX_SAFE_INTEGER)),
]);

/** What a client may send for a `zIdOrModel` field, as JSON Schema: the id, never the model. */
function idJsonSchema(): z.core.JSONSchema.BaseSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(zId, { io: "input" });
  return schema;
}

/** The largest id each integer column type can hold; a larger id matches no row. */
const LARGEST_ID: Record<string, number> = { smallint: 32_767, int2: 32_767, int: 2_147_483_647, int4: 2_147_483_647, integer: 2_147_483_647 };

/**
 * Whether no row can have this id, because the id column's integer type cannot hold it: the
 * lookup would fail with the database's "out of range" error instead of finding nothing.
 */
function beyondIdColumn(dataSource: DataSource, entity: EntityTarget<ObjectLiteral>, id: number): boolean {
  const column = dataSource.getMetadata(entity).findColumnWithPropertyName("id");
  if (!column) return false;
  const largest = LARGEST_ID[String(dataSource.driver.normalizeType(column)).toLowerCase()];
  return largest !== undefined && id > largest;
}

/**
 * Accepts a numeric id or a full model. A model passes through; an id is loaded in an async
 * transform, and a missing row throws TypedError CONNECTION_NOT_FOUND naming `entityName` (so does
 * an id larger than the id column's integer type can hold).
 * The entity needs an `id` column. Its JSON Schema (OpenAPI, MCP) is the id alone: a client never
 * sends a model, and the model's columns stay out of the documents.
 */
export function zIdOrModel<Model extends z.ZodType>(
  entity: EntityTarget<ObjectLiteral>,
  modelSchema: Model,
  isModel: (value: unknown) => boolean,
  entityName: string,
  options: IdOrModelOptions = {},
) {
  const idOrModel = z.union([zId, modelSchema]);
  // A client sends the id: the model is what code inside the app may pass, and what the id becomes.
  overrideJsonSchema(idOrModel, idJsonSchema);
  return idOrModel.transform(async (value): Promise<z.output<Model>> => {
    if (isModel(value)) return value as z.output<Model>;
    const dataSource =
      typeof options.dataSource === "function" ? options.dataSource() : (options.dataSource ?? dataSourceFor(entity));
    const found = beyondIdColumn(dataSource, entity, value as number) ? null : await dataSource.getRepository(entity).findOneBy({ id: value });
    if (!found) {
      throw new TypedError({
        message: `${entityName} ${value} not found`,
        type: ErrorType.CONNECTION_NOT_FOUND,
        value,
      });
    }
    return found as z.output<Model>;
  });
}
