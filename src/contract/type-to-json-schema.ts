import type * as TS from "typescript";
import type { JSONSchema } from "./json-schema";

/** Bytes are sent as base64 text (src/core/response-encoder.ts). */
const BYTE_TYPES = new Set([
  "Buffer",
  "ArrayBuffer",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int8Array",
  "Uint16Array",
  "Int16Array",
  "Uint32Array",
  "Int32Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
  "DataView",
]);

/** Objects the encoder turns into something this walker does not describe: left `{}`. */
const OPAQUE_TYPES = new Set(["Map", "ReadonlyMap", "WeakMap", "Set", "ReadonlySet", "WeakSet", "Promise", "RegExp", "Response", "Error"]);

/**
 * The JSON Schema (draft 2020-12) of what a client receives when `run` returns a value of `type`,
 * encoded as src/core/response-encoder.ts encodes it: a Date is its ISO string, bytes are base64,
 * `undefined` (and `void`) is null at the top and in arrays and an optional property in an object.
 * A part it cannot express (any, unknown, a type parameter, a function, a Map or a Set, a symbol,
 * a bigint, a recursive type…) is `{}`, and its type text is added to `unexpressed`.
 */
export function typeToJsonSchema(ts: typeof TS, checker: TS.TypeChecker, type: TS.Type, unexpressed: string[]): JSONSchema {
  const stack = new Set<TS.Type>();
  const giveUp = (part: TS.Type, why?: string): JSONSchema => {
    const text = checker.typeToString(part);
    const note = why ? `${text} (${why})` : text;
    if (!unexpressed.includes(note)) unexpressed.push(note);
    return {};
  };

  const convert = (part: TS.Type): JSONSchema => {
    const flags = part.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return giveUp(part);
    if (flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Null)) return { type: "null" };
    if (flags & ts.TypeFlags.Never) return { not: {} };
    if (flags & ts.TypeFlags.BooleanLiteral) return { const: checker.typeToString(part) === "true" };
    if (part.isStringLiteral()) return { const: part.value };
    if (part.isNumberLiteral()) return { const: part.value };
    if (flags & ts.TypeFlags.StringLike) return { type: "string" };
    if (flags & ts.TypeFlags.NumberLike) return { type: "number" };
    if (flags & ts.TypeFlags.BooleanLike) return { type: "boolean" };
    if (flags & ts.TypeFlags.BigIntLike) return giveUp(part, "a BigInt cannot be sent as JSON");
    if (flags & ts.TypeFlags.TypeParameter) return giveUp(part, "a type parameter");
    if (part.isUnion()) return union(part.types);
    if (!(flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection | ts.TypeFlags.NonPrimitive))) return giveUp(part);
    if (stack.has(part)) return giveUp(part, "recursive");
    stack.add(part);
    try {
      return objectLike(part);
    } finally {
      stack.delete(part);
    }
  };

  const union = (members: readonly TS.Type[]): JSONSchema => {
    const hasTrue = members.some((member) => member.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(member) === "true");
    const hasFalse = members.some((member) => member.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(member) === "false");
    const schemas: JSONSchema[] = [];
    let nullAdded = false;
    for (const member of members) {
      if (member.flags & ts.TypeFlags.BooleanLiteral && hasTrue && hasFalse) {
        if (!schemas.some((schema) => schema.type === "boolean")) schemas.push({ type: "boolean" });
        continue;
      }
      if (member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Null)) {
        if (!nullAdded) schemas.push({ type: "null" });
        nullAdded = true;
        continue;
      }
      schemas.push(convert(member));
    }
    if (schemas.some((schema) => Object.keys(schema).length === 0)) return {};
    if (schemas.length === 1) return schemas[0]!;
    // A union of literals only: one enum.
    if (schemas.every((schema) => Object.keys(schema).length === 1 && "const" in schema)) {
      return { enum: schemas.map((schema) => schema.const) } as JSONSchema;
    }
    return { anyOf: schemas };
  };

  const objectLike = (part: TS.Type): JSONSchema => {
    const name = part.getSymbol()?.getName() ?? part.aliasSymbol?.getName();
    if (name === "Date") return { type: "string", format: "date-time" };
    if (name && BYTE_TYPES.has(name)) return { type: "string", contentEncoding: "base64" };
    if (name && OPAQUE_TYPES.has(name)) return giveUp(part);
    if (checker.isTupleType(part)) return tuple(part as TS.TypeReference);
    if (checker.isArrayType(part)) {
      const [element] = checker.getTypeArguments(part as TS.TypeReference);
      return { type: "array", items: element ? itemOf(element) : {} };
    }
    if (part.isIntersection() && part.types.some((member) => !(member.flags & (ts.TypeFlags.Object | ts.TypeFlags.NonPrimitive)))) {
      return giveUp(part, "an intersection with a primitive");
    }
    if (part.getCallSignatures().length || part.getConstructSignatures().length) return giveUp(part, "a function");
    if (part.getProperty("toJSON")) return giveUp(part, "encoded by its own toJSON");
    if (part.getProperty("then")) return giveUp(part);
    if (part.getProperties().some((property) => property.getName() === "__@iterator" || property.getName().startsWith("__@iterator@"))) {
      return giveUp(part, "an iterable");
    }
    const properties: Record<string, JSONSchema> = {};
    const required: string[] = [];
    for (const property of checker.getPropertiesOfType(part)) {
      const key = property.getName();
      if (key.startsWith("__@")) continue; // symbol-keyed: JSON leaves it out
      if (property.flags & ts.SymbolFlags.Method) continue;
      const propertyType = checker.getTypeOfSymbol(property);
      if (propertyType.getCallSignatures().length && !propertyType.getProperties().some((member) => !(member.flags & ts.SymbolFlags.Method))) continue;
      const members = propertyType.isUnion() ? propertyType.types : [propertyType];
      const canBeUndefined = members.some((member) => member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void));
      const defined = members.filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
      if (!defined.length) continue; // always undefined: never sent
      properties[key] = defined.length === 1 ? convert(defined[0]!) : union(defined);
      if (!canBeUndefined && !(property.flags & ts.SymbolFlags.Optional)) required.push(key);
    }
    const schema: JSONSchema = { type: "object", properties };
    if (required.length) schema.required = required;
    const index = checker.getIndexInfoOfType(part, ts.IndexKind.String);
    if (index) schema.additionalProperties = withoutUndefined(index.type);
    return schema;
  };

  /** An array element: `undefined` there is sent as null. */
  const itemOf = (element: TS.Type): JSONSchema => convert(element);

  /** An index signature's value: a property holding `undefined` is left out. */
  const withoutUndefined = (value: TS.Type): JSONSchema => {
    const members = value.isUnion() ? value.types : [value];
    const defined = members.filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    if (!defined.length) return { type: "null" };
    return defined.length === 1 ? convert(defined[0]!) : union(defined);
  };

  const tuple = (reference: TS.TypeReference): JSONSchema => {
    const elements = checker.getTypeArguments(reference);
    const target = reference.target as TS.TupleType;
    const flags = target.elementFlags ?? [];
    if (flags.some((flag) => flag & (ts.ElementFlags.Rest | ts.ElementFlags.Variadic))) return giveUp(reference, "a tuple with a rest element");
    const minItems = flags.filter((flag) => flag & ts.ElementFlags.Required).length;
    return { type: "array", prefixItems: elements.map(itemOf), items: false, minItems, maxItems: elements.length };
  };

  return convert(type);
}
