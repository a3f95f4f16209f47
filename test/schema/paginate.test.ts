import { DataSource } from "typeorm";
import { paginate, paginationInputs } from "herald";
import { HOOK_TIMEOUT } from "herald/testing";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { Owner, Pet } from "./fixtures/entities";

const database = usePostgresSchema("paginate");
const dataSource = new DataSource({ type: "postgres", url: database.url, entities: [Owner, Pet], synchronize: true });

beforeAll(async () => {
  await dataSource.initialize();
  await dataSource.getRepository(Owner).save([
    { id: 1, name: "Ada" },
    { id: 2, name: "Grace" },
  ]);
  // 23 pets: every third has no owner.
  await dataSource
    .getRepository(Pet)
    .save(Array.from({ length: 23 }, (_, index) => ({ name: `pet ${index + 1}`, owner_id: index % 3 === 2 ? null : (index % 2) + 1 })));
}, HOOK_TIMEOUT);
afterAll(() => dataSource.destroy(), HOOK_TIMEOUT);

const pets = () => dataSource.getRepository(Pet).createQueryBuilder("pet").orderBy("pet.id", "ASC");

describe("paginate on a TypeORM query builder", () => {
  test("returns the requested page of entities with the totals", async () => {
    const result = await paginate(pets(), dataSource.getRepository(Pet).count(), { page: 2, limit: 10 });
    expect(result.data.map((pet) => pet.name)).toEqual(Array.from({ length: 10 }, (_, index) => `pet ${index + 11}`));
    expect(result.data[0]).toBeInstanceOf(Pet);
    expect(result.pagination).toEqual({ page: 2, limit: 10, total: 23, pages: 3 });
  });

  test("the last page is partial, and a page past the end is empty with the same totals", async () => {
    const last = await paginate(pets(), dataSource.getRepository(Pet).count(), { page: 3, limit: 10 });
    expect(last.data.map((pet) => pet.name)).toEqual(["pet 21", "pet 22", "pet 23"]);
    const past = await paginate(pets(), dataSource.getRepository(Pet).count(), { page: 4, limit: 10 });
    expect(past).toEqual({ data: [], pagination: { page: 4, limit: 10, total: 23, pages: 3 } });
  });

  test("accepts the spec's one-row [{ count }] count query, whose pg count is a string", async () => {
    const countQuery = dataSource.createQueryBuilder().select("COUNT(*)", "count").from(Pet, "pet").getRawMany();
    await expect(countQuery).resolves.toEqual([{ count: "23" }]);
    const result = await paginate(pets(), countQuery, { page: 1, limit: 5 });
    expect(result.pagination).toEqual({ page: 1, limit: 5, total: 23, pages: 5 });
  });

  test("pages raw rows selected from a join", async () => {
    const query = dataSource
      .getRepository(Pet)
      .createQueryBuilder("pet")
      .leftJoin("pet.owner", "owner")
      .select("pet.id", "id")
      .addSelect("owner.name", "owner_name")
      .orderBy("pet.id", "DESC");
    const result = await paginate<{ id: number; owner_name: string | null }>(query, query.getCount(), { page: 1, limit: 4 }, { raw: true });
    expect(result.data).toEqual([
      { id: 23, owner_name: "Ada" },
      { id: 22, owner_name: "Grace" },
      { id: 21, owner_name: null },
      { id: 20, owner_name: "Grace" },
    ]);
    expect(result.pagination).toEqual({ page: 1, limit: 4, total: 23, pages: 6 });
  });

  test("pages entities with a joined relation by entity, not by joined row", async () => {
    const query = dataSource.getRepository(Owner).createQueryBuilder("owner").leftJoinAndMapMany("owner.pets", Pet, "pet", "pet.owner_id = owner.id").orderBy("owner.id");
    const result = await paginate(query, query.getCount(), { page: 1, limit: 1 });
    expect(result.data).toHaveLength(1);
    expect(result.data[0]).toMatchObject({ id: 1, name: "Ada" });
    expect((result.data[0] as Owner & { pets: Pet[] }).pets).toHaveLength(8);
    expect(result.pagination).toEqual({ page: 1, limit: 1, total: 2, pages: 2 });
  });

  test("leaves the given query untouched, so it can be paged again", async () => {
    const query = pets();
    await paginate(query, query.getCount(), { page: 3, limit: 2 });
    expect(await query.getMany()).toHaveLength(23);
  });

  test("takes the output of paginationInputs, strings from a query string included", async () => {
    const params = paginationInputs({ defaultLimit: 10, maxLimit: 50 }).parse({ page: "3" });
    const result = await paginate(pets(), dataSource.getRepository(Pet).count(), params);
    expect(result.pagination).toEqual({ page: 3, limit: 10, total: 23, pages: 3 });
  });

  test("an empty table has zero pages", async () => {
    const empty = pets().where("pet.name = :name", { name: "nobody" });
    const result = await paginate(empty, empty.getCount(), { page: 1, limit: 10 });
    expect(result).toEqual({ data: [], pagination: { page: 1, limit: 10, total: 0, pages: 0 } });
  });

  test("a count query that gives no count is an error, not a silent zero", async () => {
    await expect(paginate(pets(), Promise.resolve([{ count: "many" }]), { page: 1, limit: 10 })).rejects.toThrow(
      'the count query gave [{"count":"many"}], not a count',
    );
  });
});
