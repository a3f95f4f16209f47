import { Pool } from "pg";
import { HeraldServer, injectable, type Initializer } from "herald";

/**
 * The soak app's PostgreSQL pool, from DATABASE_URL (the soak script created the schema and its
 * tables). Registered when built, so actions can have it injected.
 */
@injectable()
export class SoakDatabase implements Initializer {
  readonly name = "soak-database";
  readonly priority = 100;
  private readonly pool: Pool;

  constructor(private readonly server: HeraldServer) {
    this.pool = new Pool({ connectionString: server.config.databaseUrl, max: 5, connectionTimeoutMillis: 5000 });
    // An idle client whose connection drops must not take the process down.
    this.pool.on("error", (error) => server.logger.warn({ err: error.message }, "soak database: idle client lost"));
    server.container.register(Pool, { useValue: this.pool });
  }

  async initialize(): Promise<void> {
    await this.pool.query("SELECT 1");
    this.server.health.register("database", async () => {
      await this.pool.query("SELECT 1");
    });
  }

  async stop(): Promise<void> {
    await this.pool.end();
  }
}
