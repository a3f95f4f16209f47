import type { ColumnMetadataArgs } from "typeorm/metadata-args/ColumnMetadataArgs";
import { z } from "zod";

type ColumnOptions = ColumnMetadataArgs["options"];

/** Modes TypeORM uses for values it computes itself; they are not part of a stored row. */
const COMPUTED_MODES = new Set(["virtual", "virtual-property", "treeChildrenCount", "treeLevel"]);

const INTEGER = new Set(["int", "int2", "int4", "integer", "smallint", "mediumint", "tinyint"]);
/** The pg driver returns these as strings, so that no digit is lost. */
const BIG_NUMERIC = new Set(["bigint", "int8", "int64", "decimal", "numeric", "dec", "fixed", "money"]);
const FLOAT = new Set(["float", "float4", "float8", "double", "double precision", "real"]);
const BOOLEAN = new Set(["boolean", "bool"]);
const TIMESTAMP = new Set([
  "timestamp",
  "timestamptz",
  "timestamp with time zone",
  "timestamp without time zone",
  "datetime",
  "datetime2",
  "datetimeoffset",
  "smalldatetime",
]);
const TEXT = new Set([
  "varchar",
  "character varying",
  "char",
  "character",
  "nvarchar",
  "nchar",
  "text",
  "tinytext",
  "mediumtext",
  "longtext",
  "citext",
  "string",
  "time",
  "timetz",
  "time with time zone",
  "time without time zone",
  "interval",
  "inet",
  "cidr",
  "macaddr",
  "xml",
  "ltree",
]);
const JSON_TYPES = new Set(["json", "jsonb", "simple-json"]);
const BINARY = new Set(["bytea", "blob", "tinyblob", "mediumblob", "longblob", "binary", "varbinary"]);

/**
 * A timestamp column: a Date when loaded, an ISO string when it arrived as JSON; never null (as
 * `z.coerce.date()` would make 1970 of it). The metadata gives JSON Schema converters
 * (`unrepresentable: "any"`) the wire shape of a Date.
 */
export function zTimestamp() {
  return z
    .preprocess((value) => (typeof value === "string" ? new Date(value) : value), z.date())
    .meta({ type: "string", format: "date-time" });
}

/** The zod schema of one column's value as a loaded entity holds it; undefined for computed columns. */
export function columnSchema(column: ColumnMetadataArgs): z.ZodType | undefined {
  if (COMPUTED_MODES.has(column.mode)) return undefined;
  const { options } = column;
  let schema = valueSchema(column);
  if (options.array) schema = z.array(schema);
  if (options.comment) schema = schema.describe(options.comment);
  if (options.nullable || column.mode === "deleteDate") schema = schema.nullable();
  // A `select: false` column is absent from a row unless a query asks for it.
  if (options.select === false) schema = schema.optional();
  return schema;
}

function valueSchema(column: ColumnMetadataArgs): z.ZodType {
  const { options } = column;
  switch (column.mode) {
    case "createDate":
    case "updateDate":
    case "deleteDate":
      return options.type ? typeSchema(options) : zTimestamp();
    case "version":
      return z.number().int();
    case "objectId":
      return z.string();
    default:
      return typeSchema(options);
  }
}

function typeSchema(options: ColumnOptions): z.ZodType {
  const { type } = options;
  if (typeof type === "function") return constructorSchema(type, options);
  const name = String(type ?? "").toLowerCase();
  if (INTEGER.has(name)) return z.number().int();
  if (BIG_NUMERIC.has(name)) return z.string();
  if (FLOAT.has(name)) return z.number();
  if (BOOLEAN.has(name)) return z.boolean();
  if (name === "uuid") return z.uuid();
  if (TIMESTAMP.has(name)) return zTimestamp();
  // The pg driver returns a `date` as "YYYY-MM-DD", not a Date.
  if (name === "date") return z.iso.date();
  if (TEXT.has(name)) return textSchema(options);
  if (JSON_TYPES.has(name)) return z.json();
  if (name === "simple-array") return z.array(z.string());
  if (name === "enum" || name === "simple-enum") return enumSchema(options);
  if (BINARY.has(name)) return z.instanceof(Buffer);
  return z.unknown();
}

function constructorSchema(type: Function, options: ColumnOptions): z.ZodType {
  switch (type) {
    case String:
      return options.enum ? enumSchema(options) : textSchema(options);
    case Number:
      return z.number().int();
    case Boolean:
      return z.boolean();
    case Date:
      return zTimestamp();
    case Buffer:
      return z.instanceof(Buffer);
    default:
      return z.unknown();
  }
}

function textSchema(options: ColumnOptions): z.ZodType {
  const length = Number(options.length);
  return Number.isInteger(length) && length > 0 ? z.string().max(length) : z.string();
}

function enumSchema(options: ColumnOptions): z.ZodType {
  const source = options.enum;
  if (!source) return z.string();
  const values = Array.isArray(source)
    ? source
    : // A numeric TypeScript enum maps names to numbers and numbers back to names; keep the values.
      Object.entries(source)
        .filter(([key]) => !/^\d+$/.test(key))
        .map(([, value]) => value);
  if (values.length === 0) return z.never();
  return z.literal(values as (string | number)[]);
}
