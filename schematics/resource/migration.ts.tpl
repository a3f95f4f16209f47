import { Table, type MigrationInterface, type QueryRunner } from "typeorm";

/** Creates the "{{table}}" table as the {{pascal}} entity describes it. */
export class Create{{pluralPascal}}{{timestamp}} implements MigrationInterface {
  name = "Create{{pluralPascal}}{{timestamp}}";

  async up(queryRunner: QueryRunner): Promise<void> {
    // Through TypeORM's Table rather than SQL text: the constraints get the names its schema
    // builder gives them, so the database matches the entity exactly.
    await queryRunner.createTable(
      new Table({
        name: "{{table}}",
        columns: [
          { name: "id", type: "integer", isPrimary: true, isGenerated: true, generationStrategy: "increment" },
          { name: "title", type: "character varying", length: "200" },
          { name: "created_at", type: "timestamp with time zone", default: "now()" },
          { name: "updated_at", type: "timestamp with time zone", default: "now()" },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable("{{table}}");
  }
}
