import { DataSource } from "typeorm";
import { dataSourceFor } from "herald";
import { startTestServer, testServer, useTestServer } from "herald/testing";
import { Message } from "../../sample-app/entities/message";
import { User } from "../../sample-app/entities/user";
import { usePostgresSchema } from "./support/postgres";
import { database, SAMPLE_APP } from "./support/app";

const postgres = usePostgresSchema("sample_database");
const fresh = usePostgresSchema("sample_database_fresh");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url } });

function bootOn(url: string) {
  return startTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: url } });
}

describe("the database initializer", () => {
  test("connects one DataSource and gives it to actions through the container", () => {
    const dataSource = database();
    expect(dataSource).toBeInstanceOf(DataSource);
    expect(dataSource.isInitialized).toBe(true);
    expect(dataSource.options.synchronize).toBe(false);
    expect(testServer().container.resolve(DataSource)).toBe(dataSource);
    expect(dataSourceFor(User)).toBe(dataSource);
  });

  test("works in the test file's own schema", async () => {
    await expect(database().query("SELECT current_schema() AS schema")).resolves.toEqual([{ schema: postgres.schema }]);
  });

  test("has run the migrations, and the migrations match the entities", async () => {
    const applied = await database().query('SELECT "name" FROM "migrations" ORDER BY "id"');
    expect(applied).toEqual([{ name: "InitialSchema1763769600000" }]);
    const pending = await database().driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  test("reports the database in the health registry", async () => {
    const report = await testServer().health.report();
    expect(report.services.database).toMatchObject({ healthy: true });
  });

  test("a second boot on a migrated database applies nothing and closes on stop", async () => {
    const second = await bootOn(postgres.url);
    const dataSource = second.container.resolve(DataSource);
    try {
      expect(dataSource).not.toBe(database());
      expect(dataSourceFor(User)).toBe(dataSource);
      await expect(dataSource.showMigrations()).resolves.toBe(false);
    } finally {
      await second.stop();
    }
    expect(dataSource.isInitialized).toBe(false);
    expect(dataSourceFor(User)).toBe(database());
  });
});

describe("migrations on an empty schema", () => {
  test("servers booting at once migrate it once, one after the other", async () => {
    const servers = await Promise.all([bootOn(fresh.url), bootOn(fresh.url), bootOn(fresh.url)]);
    try {
      const dataSource = servers[0]!.container.resolve(DataSource);
      await expect(dataSource.query('SELECT count(*)::int AS runs FROM "migrations"')).resolves.toEqual([{ runs: 1 }]);
      await expect(dataSource.getRepository(Message).count()).resolves.toBe(0);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  });

  test("the initial migration reverts cleanly and applies again", async () => {
    const server = await bootOn(fresh.url);
    try {
      const dataSource = server.container.resolve(DataSource);
      await dataSource.undoLastMigration();
      const tables = () =>
        dataSource.query(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name <> 'migrations' ORDER BY 1",
        );
      await expect(tables()).resolves.toEqual([]);
      await dataSource.runMigrations();
      await expect(tables()).resolves.toEqual([{ table_name: "messages" }, { table_name: "users" }]);
    } finally {
      await server.stop();
    }
  });
});
