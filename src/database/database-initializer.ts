import { injectable } from "tsyringe";
import type { Initializer } from "../core/initializer";
import { HeraldServer } from "../core/server";
import type { DatabaseBoot } from "./database-boot";

/**
 * The `database` initializer, in every server's boot and enabled only for an app whose config
 * has `database`. What it runs (database-boot.ts) is loaded at its `register`, so an app without
 * the database never loads TypeORM: about 300 modules and 20 MB of memory.
 */
@injectable()
export class DatabaseInitializer implements Initializer {
  readonly name = "database";
  get enabled(): boolean {
    return this.server.app.database !== undefined;
  }
  private boot: DatabaseBoot | undefined;

  constructor(private readonly server: HeraldServer) {}

  register(): void {
    const folders = this.server.app.database;
    if (!folders) return;
    const { DatabaseBoot } = require("./database-boot") as typeof import("./database-boot");
    this.boot = new DatabaseBoot(this.server, folders);
    this.boot.register();
  }

  async initialize(): Promise<void> {
    await this.boot?.initialize();
  }

  async stop(): Promise<void> {
    await this.boot?.stop();
  }
}
