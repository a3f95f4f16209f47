import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { DataSource } from "typeorm";
import { ErrorType, TypedError } from "../core/errors";
import { Migrator, type MigrationStatus } from "../core/ports/migrator";
import { migrate } from "./migrate";

const NAME = /^[a-z][a-z0-9-]{0,60}$/;

function pascal(name: string): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_, _dash: string, letter: string) => letter.toUpperCase());
}

function quoted(sql: string): string {
  return JSON.stringify(sql);
}

/** `herald migrate` for the sample app, on TypeORM. */
export class TypeOrmMigrator extends Migrator {
  constructor(
    private readonly dataSource: DataSource,
    private readonly options: { shared: boolean; directory: string },
  ) {
    super();
  }

  run(): Promise<string[]> {
    return migrate(this.dataSource, { shared: this.options.shared });
  }

  async revert(): Promise<string | undefined> {
    const before = (await this.status()).applied;
    if (!before.length) return undefined;
    await this.dataSource.undoLastMigration({ transaction: "all" });
    return before.at(-1);
  }

  async status(): Promise<MigrationStatus> {
    const table = this.dataSource.options.migrationsTableName ?? "migrations";
    const exists = await this.dataSource.query(`SELECT to_regclass($1) AS name`, [table]);
    const rows: { name: string }[] = exists[0]?.name
      ? await this.dataSource.query(`SELECT name FROM "${table}" ORDER BY id`)
      : [];
    const applied = rows.map((row) => row.name);
    const pending = this.dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name).filter((name) => !applied.includes(name));
    return { applied, pending };
  }

  async generate(name: string, options: { directory?: string } = {}): Promise<string[]> {
    if (!NAME.test(name)) {
      throw new TypedError({
        message: "A migration name is lower-case words joined by dashes, such as add-user-avatar",
        type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
        key: "name",
        value: name,
      });
    }
    const { upQueries, downQueries } = await this.dataSource.driver.createSchemaBuilder().log();
    if (!upQueries.length) return [];
    const timestamp = Date.now();
    const className = `${pascal(name)}${timestamp}`;
    const up = upQueries.map((query) => `    await queryRunner.query(${quoted(query.query)});`).join("\n");
    const down = downQueries
      .reverse()
      .map((query) => `    await queryRunner.query(${quoted(query.query)});`)
      .join("\n");
    const source = `import type { MigrationInterface, QueryRunner } from "typeorm";

export class ${className} implements MigrationInterface {
  name = "${className}";

  async up(queryRunner: QueryRunner): Promise<void> {
${up}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${down}
  }
}
`;
    const directory = options.directory ?? this.options.directory;
    mkdirSync(directory, { recursive: true });
    const file = join(directory, `${timestamp}-${name}.ts`);
    writeFileSync(file, source, { flag: "wx" });
    return [file];
  }
}
