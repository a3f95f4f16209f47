import fc from "fast-check";
import { z } from "zod";
import { checkDefOf, defOf, type ZodCheckDef, type ZodDef } from "../../../src/core/zod-internals";

/**
 * A fast-check arbitrary of the inputs a zod 4 schema accepts: what a well-behaved client would
 * send, for hostile-input tests to spoil afterwards. It walks zod's definitions (`_zod.def`, read
 * through src/core/zod-internals.ts) and covers what Herald apps' input schemas are made of: objects, strings
 * (lengths, e-mail, regex, trim and other overwrites), numbers and integers with bounds, coercion,
 * booleans, enums, literals, arrays, records, unions (zIdOrModel, zBooleanFromString), optional,
 * nullable, default, pipes and preprocessing. `secret()` is metadata only and changes nothing.
 * Anything else throws, so that a new kind of input is noticed rather than silently skipped.
 */
export function arbitraryFromZod(schema: z.ZodType): fc.Arbitrary<unknown> {
  return convert(schema, 0);
}

type Def = ZodDef;
type CheckDef = ZodCheckDef;

/** Deep enough for any input schema; a z.lazy that refers to itself would otherwise recurse forever. */
const MAX_SCHEMA_DEPTH = 20;
/** Strings and arrays stay short: the hostile corruptions add the huge ones. */
const EXTRA_LENGTH = 40;
const EXTRA_ITEMS = 4;

/** The checks of a schema; z.email(), z.int() … are schemas whose own definition is a check as well. */
function checksOf(def: Def): CheckDef[] {
  const checks = (def.checks ?? []).map(checkDefOf);
  return typeof def.check === "string" ? [def as unknown as CheckDef, ...checks] : checks;
}

/**
 * Whether an object may leave this field out: optional, defaulted, or anything else that accepts
 * undefined. (zod's own `optin` marker is no guide: a z.preprocess is "optional" by it, yet its
 * inner schema may refuse undefined.)
 */
function mayBeAbsent(schema: z.ZodType): boolean {
  try {
    return schema.safeParse(undefined).success;
  } catch {
    return false;
  }
}

function parsesSync(schema: z.ZodType, value: unknown): boolean {
  try {
    return schema.safeParse(value).success;
  } catch (error) {
    // An async step (a zIdOrModel lookup) cannot be checked here; the value was built to fit it.
    if (error instanceof z.core.$ZodAsyncError) return true;
    return false;
  }
}

function convert(schema: z.ZodType, depth: number): fc.Arbitrary<unknown> {
  if (depth > MAX_SCHEMA_DEPTH) throw new Error("arbitraryFromZod: the schema nests deeper than 20 levels (a recursive z.lazy?)");
  const def = defOf(schema);
  const inner = (child: unknown) => convert(child as z.ZodType, depth + 1);
  switch (def.type) {
    case "string":
      return stringArbitrary(schema, def);
    case "number":
      return numberArbitrary(schema, def);
    case "boolean":
      return def.coerce ? fc.oneof(fc.boolean(), fc.constantFrom(0, 1, "yes", "")) : fc.boolean();
    case "date":
      return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true });
    case "null":
      return fc.constant(null);
    case "undefined":
      return fc.constant(undefined);
    case "any":
    case "unknown":
      return fc.jsonValue();
    case "enum":
      return fc.constantFrom(...Object.values(def.entries as Record<string, string | number>));
    case "literal":
      return fc.constantFrom(...(def.values as unknown[]));
    case "array":
      return arrayArbitrary(def, inner(def.element));
    case "object":
      return objectArbitrary(def, depth);
    case "record":
      return fc.dictionary(recordKeyArbitrary(def.keyType as z.ZodType), inner(def.valueType), { maxKeys: EXTRA_ITEMS });
    case "union":
      return fc.oneof(...(def.options as z.ZodType[]).map(inner));
    case "optional":
      return fc.option(inner(def.innerType), { nil: undefined });
    case "nullable":
      return fc.option(inner(def.innerType), { nil: null });
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      // Leaving a defaulted field out is the object's business (its key is optional there).
      return inner(def.innerType);
    case "lazy":
      return inner((def.getter as () => z.ZodType)());
    case "pipe":
      return pipeArbitrary(schema, def, depth);
    default:
      throw new Error(`arbitraryFromZod: no arbitrary for a zod "${def.type}" schema`);
  }
}

function objectArbitrary(def: Def, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const shape = def.shape as Record<string, z.ZodType>;
  const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, convert(field, depth + 1)]));
  const requiredKeys = Object.keys(shape).filter((key) => !mayBeAbsent(shape[key]!));
  return fc.record(fields, { requiredKeys });
}

/**
 * `a.pipe(b)` takes what `a` takes, unless `a` is a bare transform (z.preprocess), whose input
 * could be anything: then what `b` takes is the plausible input. A pipe into a schema (not into a
 * transform) can refuse some of `a`'s outputs, such as digits beyond Number.MAX_SAFE_INTEGER.
 */
function pipeArbitrary(schema: z.ZodType, def: Def, depth: number): fc.Arbitrary<unknown> {
  const from = def.in as z.ZodType;
  const to = def.out as z.ZodType;
  if (defOf(from).type === "transform") return convert(to, depth + 1);
  const source = convert(from, depth + 1);
  return defOf(to).type === "transform" ? source : source.filter((value) => parsesSync(schema, value));
}

function arrayArbitrary(def: Def, item: fc.Arbitrary<unknown>): fc.Arbitrary<unknown[]> {
  let minLength = 0;
  let maxLength = Number.POSITIVE_INFINITY;
  for (const check of checksOf(def)) {
    if (check.check === "min_length") minLength = Math.max(minLength, check.minimum as number);
    else if (check.check === "max_length") maxLength = Math.min(maxLength, check.maximum as number);
    else if (check.check === "length_equals") minLength = maxLength = check.length as number;
    else throw new Error(`arbitraryFromZod: no arbitrary for the array check "${check.check}"`);
  }
  return fc.array(item, { minLength, maxLength: Math.min(maxLength, minLength + EXTRA_ITEMS) });
}

function stringArbitrary(schema: z.ZodType, def: Def): fc.Arbitrary<string> {
  let minLength = 0;
  let maxLength = Number.POSITIVE_INFINITY;
  const formats: CheckDef[] = [];
  for (const check of checksOf(def)) {
    switch (check.check) {
      case "min_length":
        minLength = Math.max(minLength, check.minimum as number);
        break;
      case "max_length":
        maxLength = Math.min(maxLength, check.maximum as number);
        break;
      case "length_equals":
        minLength = maxLength = check.length as number;
        break;
      case "string_format":
        formats.push(check);
        break;
      case "overwrite":
        // trim(), toLowerCase() …: the final filter keeps the values that still fit afterwards.
        break;
      default:
        throw new Error(`arbitraryFromZod: no arbitrary for the string check "${check.check}"`);
    }
  }
  if (formats.length > 1) throw new Error("arbitraryFromZod: a string with more than one format");
  const upTo = Math.min(maxLength, minLength + EXTRA_LENGTH);
  // Printable ASCII mostly, and now and then any grapheme: a name may well be "Zoë 👩‍🔬".
  const text = fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength: upTo }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength, maxLength: upTo }) },
  );
  const base = formats[0] ? formatArbitrary(formats[0]) : text;
  return base.filter((value) => parsesSync(schema, value));
}

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/);

/** Addresses zod's e-mail pattern accepts (fc.emailAddress() makes RFC-valid ones it refuses, such as `a!b@c.de`). */
const emailAddress: fc.Arbitrary<string> = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9_+-]{1,16}(\.[A-Za-z0-9_+-]{1,8})?$/), fc.array(label, { minLength: 1, maxLength: 2 }), fc.stringMatching(/^[a-z]{2,6}$/))
  .map(([local, labels, top]) => `${local}@${labels.join(".")}.${top}`);

function formatArbitrary(check: CheckDef): fc.Arbitrary<string> {
  switch (check.format) {
    case "email":
      return emailAddress;
    case "regex":
      return fc.stringMatching(check.pattern as RegExp);
    case "uuid":
    case "guid":
      return fc.uuid();
    case "url":
      return fc.webUrl();
    default:
      throw new Error(`arbitraryFromZod: no arbitrary for the string format "${String(check.format)}"`);
  }
}

const INTEGER_FORMATS: Record<string, [number, number]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
};

function numberArbitrary(schema: z.ZodType, def: Def): fc.Arbitrary<number | string> {
  let min = -Number.MAX_VALUE;
  let max = Number.MAX_VALUE;
  let minExcluded = false;
  let maxExcluded = false;
  let integer = false;
  let multipleOf: number | undefined;
  for (const check of checksOf(def)) {
    const value = check.value as number;
    switch (check.check) {
      case "number_format": {
        const range = INTEGER_FORMATS[check.format as string];
        if (range) {
          integer = true;
          [min, max] = [Math.max(min, range[0]), Math.min(max, range[1])];
        }
        break;
      }
      case "greater_than":
        if (value > min || (value === min && !check.inclusive)) [min, minExcluded] = [value, !check.inclusive];
        break;
      case "less_than":
        if (value < max || (value === max && !check.inclusive)) [max, maxExcluded] = [value, !check.inclusive];
        break;
      case "multiple_of":
        multipleOf = value;
        break;
      default:
        throw new Error(`arbitraryFromZod: no arbitrary for the number check "${check.check}"`);
    }
  }
  let numbers: fc.Arbitrary<number>;
  if (integer || multipleOf !== undefined) {
    const step = multipleOf ?? 1;
    const low = Math.ceil(min / step) + (minExcluded && Number.isInteger(min / step) ? 1 : 0);
    const high = Math.floor(max / step) - (maxExcluded && Number.isInteger(max / step) ? 1 : 0);
    numbers = fc.integer({ min: Math.max(low, Number.MIN_SAFE_INTEGER), max: Math.min(high, Number.MAX_SAFE_INTEGER) }).map((n) => n * step);
  } else {
    numbers = fc.double({ min, max, minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true });
  }
  // A coercing input is what a query string or a CLI flag sends: the number, often as text.
  const inputs = def.coerce ? fc.oneof(numbers, numbers.map(String)) : numbers;
  return inputs.filter((value) => parsesSync(schema, value));
}

function recordKeyArbitrary(keyType: z.ZodType): fc.Arbitrary<string> {
  const key = convert(keyType, 0);
  return key.filter((value): value is string => typeof value === "string");
}
