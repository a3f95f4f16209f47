import { join } from "node:path";
import { DataSource } from "typeorm";
import { testServer, useTestServer } from "herald/testing";

// The embedded database in memory by default; PostgreSQL when DATABASE_URL is set (in .env.test, say).
useTestServer({ appDir: join(__dirname, "..") });

test("the database is up", async () => {
  const report = await testServer().health.report();
  expect(report.services["database"]).toMatchObject({ healthy: true });
});

test("the migrations match the entities: an entity changed without its migration fails here", async () => {
  const pending = await testServer().container.resolve(DataSource).driver.createSchemaBuilder().log();
  expect(pending.upQueries.map((query) => query.query)).toEqual([]);
});
