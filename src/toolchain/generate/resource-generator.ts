import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { ErrorType, TypedError } from "../../core/errors";
import { pathToRoot } from "./generator-context";
import { NAME_PART, wordsOf } from "./names";
import type { GeneratedFile, GeneratorContext, PluginGenerator } from "./plugin-generator";
import { englishPlural } from "./plural";
import { renderSchematic } from "./templates";

/**
 * What the generated files import or use by name: an entity class named so would hide it there
 * (`date` would make `created_at!: Date` the entity itself).
 */
const TAKEN_CLASS_NAMES = new Set([
  "Action", "ActionParams", "Array", "Boolean", "Column", "Connection", "CreateDateColumn", "DataSource", "Date",
  "Entity", "Error", "ErrorType", "Function", "Map", "Math", "MigrationInterface", "Number", "Object",
  "PrimaryGeneratedColumn", "Promise", "QueryRunner", "Record", "Set", "String", "Symbol", "Table", "TypedError",
  "UpdateDateColumn", "Web",
]);

/** Tables TypeORM keeps for itself in the app's schema. */
const TYPEORM_TABLES = new Set(["migrations", "typeorm_metadata"]);

/** TypeORM orders migrations by the 13-digit timestamp that ends the class name. */
const MIGRATION_FILE = (plural: string) => new RegExp(`^(\\d{13})-create-${plural}\\.ts$`);

interface ResourceNames {
  /** kebab-case, singular: the action names' group and the files' names (`blog-post`). */
  kebab: string;
  /** The entity class (`BlogPost`). */
  pascal: string;
  /** The response's key for one row (`blogPost`). */
  camel: string;
  /** In a sentence (`blog post`). */
  words: string;
  /** kebab-case, plural: the routes (`blog-posts`). */
  pluralKebab: string;
  pluralPascal: string;
  pluralCamel: string;
  pluralWords: string;
  /** snake_case, plural. */
  table: string;
}

function refuse(message: string, key: string, value: unknown): never {
  throw new TypedError({ message: `${message}. Nothing was written.`, type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION, key, value });
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function pluralWordsOf(context: GeneratorContext, singular: string[]): string[] {
  const given = context.options.plural;
  if (given === undefined) return englishPlural(singular.join("-")).split("-");
  if (typeof given !== "string" || !NAME_PART.test(given)) {
    refuse(`Invalid --plural ${String(given)}: give one word in kebab-case, such as people or blog-entries`, "plural", given);
  }
  return wordsOf(given);
}

function resourceNames(context: GeneratorContext): ResourceNames {
  const { names } = context;
  if (names.segments.length > 1) {
    refuse(`Refusing the name "${names.name}": a resource is one word in kebab-case, such as note or blog-post, not nested with "/"`, "name", names.name);
  }
  const singular = wordsOf(names.segments[0]!);
  const plural = pluralWordsOf(context, singular);
  const pascal = singular.map(capitalize).join("");
  if (TAKEN_CLASS_NAMES.has(pascal)) {
    refuse(`Refusing the name "${names.name}": its entity class ${pascal} would hide the ${pascal} the generated files use`, "name", names.name);
  }
  const table = plural.join("_");
  if (TYPEORM_TABLES.has(table)) {
    refuse(`Refusing the plural "${plural.join("-")}": TypeORM keeps its own table "${table}"`, context.options.plural === undefined ? "name" : "plural", table);
  }
  return {
    kebab: singular.join("-"),
    pascal,
    camel: names.camel,
    words: singular.join(" "),
    pluralKebab: plural.join("-"),
    pluralPascal: plural.map(capitalize).join(""),
    pluralCamel: plural[0]! + plural.slice(1).map(capitalize).join(""),
    pluralWords: plural.join(" "),
    table,
  };
}

/** The migration's timestamp: that of an earlier generation's, so that --force rewrites it rather than adding a second. */
function migrationTimestamp(migrations: string, pluralKebab: string): string {
  const pattern = MIGRATION_FILE(pluralKebab);
  const earlier = existsSync(migrations) ? readdirSync(migrations).map((file) => pattern.exec(file)?.[1]).find(Boolean) : undefined;
  return earlier ?? String(Date.now());
}

function noDatabase(): never {
  throw new TypedError({
    message:
      'herald generate resource needs the built-in database: add `database: { entities: "entities", migrations: "migrations" }` ' +
      "to herald.config.ts (docs/database.md). Nothing was written.",
    type: ErrorType.CONFIG_ERROR,
    key: "database",
  });
}

export const resourceGenerator: PluginGenerator = {
  type: "resource",
  description: "A resource on the built-in database: entity, migration, zod schemas, <name>:create/list/view/edit/delete on /<plural>",
  options: {
    plural: { type: "string", describe: "resource: the plural of its name, for its routes and table (default: by English rules, note → notes)" },
  },
  generate(context) {
    const { app } = context;
    if (!app.database) noDatabase();
    const names = resourceNames(context);
    const timestamp = migrationTimestamp(app.database.migrations, names.pluralKebab);
    const entity = join(app.database.entities, `${names.kebab}.ts`);
    const migration = join(app.database.migrations, `${timestamp}-create-${names.pluralKebab}.ts`);
    const schemas = join(dirname(app.actions), "schemas", `${names.kebab}.ts`);
    const actions = join(app.actions, `${names.kebab}.ts`);
    const test = context.testPathFor(actions);
    const values: Record<string, string> = {
      ...names,
      label: capitalize(names.words),
      timestamp,
      entityFromSchemas: context.importPath(schemas, entity),
      entityFromActions: context.importPath(actions, entity),
      schemasFromActions: context.importPath(actions, schemas),
      appRoot: pathToRoot(test, app.root),
    };
    const file = (path: string, template: string, isTest = false): GeneratedFile => ({
      path,
      content: renderSchematic(`resource/${template}.tpl`, values),
      ...(isTest ? { test: true } : {}),
    });
    return [
      file(entity, "entity.ts"),
      file(migration, "migration.ts"),
      file(schemas, "schemas.ts"),
      file(actions, "actions.ts"),
      file(test, "actions.test.ts", true),
    ];
  },
};
