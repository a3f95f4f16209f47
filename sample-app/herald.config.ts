import { defineConfig } from "herald";

export default defineConfig({
  actions: "actions",
  initializers: "initializers",
  middleware: "middleware",
  channels: "channels",
  public: "public",
  // TypeORM over the entities and migrations folders: PostgreSQL with DATABASE_URL, else the embedded PGlite.
  database: { entities: "entities", migrations: "migrations" },
  // The built-in OAuth authorization server: MCP clients sign in with session:create's form.
  oauth: { signIn: "session:create" },
});
