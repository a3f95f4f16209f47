import { DataSource } from "typeorm";
import { z } from "zod";
import { dataSourceFor, ErrorType, generateOpenApiSchemas, registerDataSource, TypedError, zIdOrModel, zodFromEntity } from "herald";
import { HOOK_TIMEOUT } from "herald/testing";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { Owner, Pet, Widget } from "./fixtures/entities";

const database = usePostgresSchema("id_or_model");
const dataSource = new DataSource({ type: "postgres", url: database.url, entities: [Owner, Pet], synchronize: true });
let unregister: () => void = () => undefined;

beforeAll(async () => {
  await dataSource.initialize();
  unregister = registerDataSource(dataSource);
  await dataSource.getRepository(Owner).save({ id: 7, name: "Ada" });
}, HOOK_TIMEOUT);
afterAll(async () => {
  unregister();
  await dataSource.destroy();
}, HOOK_TIMEOUT);

const zOwnerSchema = zodFromEntity(Owner);
const isOwner = (value: unknown) => typeof value === "object" && value !== null;
const zOwnerIdOrModel = () => zIdOrModel(Owner, zOwnerSchema, isOwner, "Owner");

async function thrownBy(promise: Promise<unknown>): Promise<TypedError> {
  try {
    await promise;
  } catch (error) {
    return error as TypedError;
  }
  throw new Error("expected a rejection");
}

describe("zIdOrModel", () => {
  test("as JSON Schema a client is asked for the id alone, never the model it becomes", () => {
    const inputs = z.object({ owner: zOwnerIdOrModel().describe("The owner's id") });
    const json = generateOpenApiSchemas([{ name: "owners:view", inputs, run: async () => null }])["owners:view"] as {
      properties: { owner: { anyOf: { type: string }[]; description: string } };
    };
    const owner = json.properties.owner;
    expect(owner.description).toBe("The owner's id");
    expect(owner.anyOf.map((option) => option.type)).toEqual(["integer", "string"]);
    expect(JSON.stringify(owner)).not.toContain('"name"');
  });

  test("loads the model an id names, in an async transform", async () => {
    const owner = await zOwnerIdOrModel().parseAsync(7);
    expect(owner).toBeInstanceOf(Owner);
    expect(owner).toMatchObject({ id: 7, name: "Ada" });
  });

  test("takes the id as digits too, as a query string or a CLI flag carries it", async () => {
    await expect(zOwnerIdOrModel().parseAsync("7")).resolves.toMatchObject({ id: 7, name: "Ada" });
  });

  test("a missing id throws TypedError CONNECTION_NOT_FOUND naming the entity", async () => {
    const error = await thrownBy(z.object({ owner: zOwnerIdOrModel() }).parseAsync({ owner: 404 }));
    expect(error).toBeInstanceOf(TypedError);
    expect(error.type).toBe(ErrorType.CONNECTION_NOT_FOUND);
    expect(error.status).toBe(404);
    expect(error.message).toBe("Owner 404 not found");
    expect(error.value).toBe(404);
  });

  test("a model passes through without a query", async () => {
    const model = { id: 12345, name: "Not stored", created_at: new Date("2024-01-01T00:00:00Z") };
    const noDatabase = zIdOrModel(Owner, zOwnerSchema, isOwner, "Owner", {
      dataSource: () => {
        throw new Error("no query expected");
      },
    });
    await expect(noDatabase.parseAsync(model)).resolves.toEqual(model);
  });

  test.each([[0], [-3], [1.5], ["07"], ["seven"], ["99999999999999999999"], [null], [{ id: 7 }]])("rejects %p as neither an id nor a model", async (value) => {
    const result = await zOwnerIdOrModel().safeParseAsync(value);
    expect(result.success).toBe(false);
  });

  test("an explicit data source wins over the registered one", async () => {
    const other = new DataSource({ type: "postgres", url: database.url, entities: [Owner, Pet] });
    const viaOption = zIdOrModel(Owner, zOwnerSchema, isOwner, "Owner", { dataSource: other });
    // `other` is not connected, so using it is what fails.
    await expect(viaOption.parseAsync(7)).rejects.toThrow();
    await other.initialize();
    try {
      await expect(viaOption.parseAsync(7)).resolves.toMatchObject({ name: "Ada" });
    } finally {
      await other.destroy();
    }
  });
});

describe("the data source registry", () => {
  test("finds the newest initialized data source holding the entity", async () => {
    const newer = new DataSource({ type: "postgres", url: database.url, entities: [Owner, Pet] });
    await newer.initialize();
    const forget = registerDataSource(newer);
    try {
      expect(dataSourceFor(Owner)).toBe(newer);
    } finally {
      forget();
      await newer.destroy();
    }
    expect(dataSourceFor(Owner)).toBe(dataSource);
  });

  test("skips a data source that is not connected, or that does not hold the entity", async () => {
    const notConnected = new DataSource({ type: "postgres", url: database.url, entities: [Owner, Pet] });
    const widgetsOnly = new DataSource({ type: "postgres", url: database.url, entities: [Widget], synchronize: true });
    await widgetsOnly.initialize();
    const forget = [registerDataSource(notConnected), registerDataSource(widgetsOnly)];
    try {
      expect(dataSourceFor(Owner)).toBe(dataSource);
      expect(dataSourceFor(Widget)).toBe(widgetsOnly);
    } finally {
      for (const unregisterOne of forget) unregisterOne();
      await widgetsOnly.destroy();
    }
  });

  test("with none registered, says what to do", async () => {
    unregister();
    try {
      const error = await thrownBy(zOwnerIdOrModel().parseAsync(7));
      expect(error).toBeInstanceOf(TypedError);
      expect(error.type).toBe(ErrorType.CONNECTION_SERVER_ERROR);
      expect(error.message).toContain("No initialized DataSource holds the entity Owner");
    } finally {
      unregister = registerDataSource(dataSource);
    }
  });
});
