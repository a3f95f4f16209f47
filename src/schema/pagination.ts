import type { ObjectLiteral, SelectQueryBuilder } from "typeorm";
import { z } from "zod";

export interface PaginationOptions {
  defaultLimit?: number;
  maxLimit?: number;
}

export interface PaginationParams {
  page: number;
  limit: number;
}

export interface PaginatedResult<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; pages: number };
}

/** The `pagination` of a page `paginate` returns, for an action's `outputs`. */
export const paginationOutputs = z.object({
  page: z.number().int().min(1).describe("This page's number, starting at 1"),
  limit: z.number().int().min(1).describe("The most rows a page holds"),
  total: z.number().int().min(0).describe("Rows on every page together"),
  pages: z.number().int().min(0).describe("How many pages there are"),
});

/**
 * `{ page, limit }` coerced from strings; `page` is 1-indexed. A `limit` above `maxLimit` is
 * rejected (422) rather than silently reduced, so a caller never gets fewer rows than it asked for
 * without knowing.
 */
export function paginationInputs(options: PaginationOptions = {}) {
  const maxLimit = options.maxLimit ?? 100;
  const defaultLimit = options.defaultLimit ?? 25;
  return z.object({
    page: z.coerce.number().int().min(1).default(1).describe("Page number, starting at 1"),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(maxLimit, { message: `limit must be at most ${maxLimit}` })
      .default(defaultLimit)
      .describe(`Items per page (at most ${maxLimit})`),
  });
}

/** What a count query may resolve to: the spec's one-row `[{ count }]`, or a plain number (`getCount()`). */
export type CountResult = number | string | readonly { count: number | string }[];

export interface PaginateOptions {
  /**
   * Read the page with `getRawMany()` (the query selects its own columns, e.g. joined fields)
   * instead of `getMany()` (entities).
   */
  raw?: boolean;
}

/**
 * Runs one page of a TypeORM select query and the count query in parallel. The query is given
 * before any limit/offset and is not modified. Entities are paged with skip/take (correct with
 * joins); raw rows with offset/limit.
 */
export function paginate<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  countQuery: PromiseLike<CountResult>,
  params: PaginationParams,
): Promise<PaginatedResult<Entity>>;
export function paginate<Row>(
  query: SelectQueryBuilder<ObjectLiteral>,
  countQuery: PromiseLike<CountResult>,
  params: PaginationParams,
  options: PaginateOptions & { raw: true },
): Promise<PaginatedResult<Row>>;
export async function paginate(
  query: SelectQueryBuilder<ObjectLiteral>,
  countQuery: PromiseLike<CountResult>,
  params: PaginationParams,
  options: PaginateOptions = {},
): Promise<PaginatedResult<unknown>> {
  const offset = (params.page - 1) * params.limit;
  const page = options.raw
    ? query.clone().offset(offset).limit(params.limit).getRawMany()
    : query.clone().skip(offset).take(params.limit).getMany();
  const [data, counted] = await Promise.all([page, countQuery]);
  const total = totalOf(counted);
  return {
    data,
    pagination: { page: params.page, limit: params.limit, total, pages: Math.ceil(total / params.limit) },
  };
}

/** PostgreSQL returns COUNT(*) as a bigint, so the pg driver hands it over as a string. */
function totalOf(counted: CountResult): number {
  const value = Array.isArray(counted) ? (counted[0]?.count ?? 0) : counted;
  const total = Number(value);
  if (!Number.isSafeInteger(total) || total < 0) {
    throw new TypeError(`paginate: the count query gave ${JSON.stringify(counted)}, not a count`);
  }
  return total;
}
