import { Column } from "typeorm";
import { z } from "zod";
import { generateOpenApiSchemas, isSecret, zodFromEntity, type ColumnKeys, type TypedError } from "herald";
import { isInternal } from "../../src/schema/internal";
import { Gadget, Mood, Owner, Pet, Priority, Widget } from "./fixtures/entities";

const validGadget = {
  id: 1,
  label: "lamp",
  notes: null,
  inferredText: "text",
  inferredCount: 3,
  inferredFlag: true,
  serial: "9007199254740993",
  price: "12.50",
  weight: 1.25,
  token: "7f1c2a4e-3b6d-4c8e-9a0b-1d2e3f4a5b6c",
  madeOn: "2024-02-29",
  extra: { colour: "red", sizes: [1, 2] },
  tags: ["a", "b"],
  mood: Mood.busy,
  priority: Priority.high,
  address: { city: "Lyon", postcode: null },
  version: 1,
  created_at: new Date("2024-01-01T00:00:00Z"),
  updated_at: "2024-01-02T00:00:00.000Z",
  deleted_at: null,
};

describe("zodFromEntity", () => {
  const schema = zodFromEntity(Gadget);

  test("has one field per column, in declaration order, and nothing else", () => {
    expect(Object.keys(schema.shape)).toEqual([
      "id",
      "label",
      "notes",
      "inferredText",
      "inferredCount",
      "inferredFlag",
      "serial",
      "price",
      "weight",
      "token",
      "madeOn",
      "extra",
      "tags",
      "mood",
      "priority",
      "hidden",
      "version",
      "created_at",
      "updated_at",
      "deleted_at",
      "address",
    ]);
  });

  test("accepts a row as TypeORM loads it, with timestamps as Dates or ISO strings", () => {
    const parsed = schema.parse(validGadget);
    expect(parsed.created_at).toEqual(new Date("2024-01-01T00:00:00Z"));
    expect(parsed.updated_at).toEqual(new Date("2024-01-02T00:00:00Z"));
    // Embedded columns are in the runtime schema; like relations, objects stay out of the static type.
    expect((parsed as Record<string, unknown>).address).toEqual({ city: "Lyon", postcode: null });
    expect(parsed).not.toHaveProperty("hidden");
  });

  test.each([
    ["id", 1.5],
    ["id", "1"],
    ["label", "x".repeat(41)],
    ["label", null],
    ["inferredCount", 2.5],
    ["inferredFlag", "yes"],
    ["serial", 12],
    ["weight", "heavy"],
    ["token", "not-a-uuid"],
    ["madeOn", "29/02/2024"],
    ["tags", "a,b"],
    ["mood", "angry"],
    ["priority", 3],
    ["created_at", "yesterday"],
    ["deleted_at", undefined],
    ["address", { city: 5 }],
  ])("rejects %s = %p", (column, value) => {
    expect(schema.safeParse({ ...validGadget, [column]: value }).success).toBe(false);
  });

  test("nullable columns, and the delete date, accept null; the others do not", () => {
    expect(schema.safeParse({ ...validGadget, notes: null, deleted_at: null }).success).toBe(true);
    expect(schema.safeParse({ ...validGadget, label: null }).success).toBe(false);
    expect(schema.safeParse({ ...validGadget, created_at: null }).success).toBe(false);
  });

  test("a column left out of default selects is optional", () => {
    expect(schema.safeParse({ ...validGadget, hidden: "seen" }).success).toBe(true);
    expect(schema.safeParse({ ...validGadget, hidden: undefined }).success).toBe(true);
  });

  test("the column comment becomes the field description", () => {
    expect(schema.shape.label.description).toBe("What it is called");
  });

  test("converts to JSON Schema, timestamps as date-time strings", () => {
    const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(json.properties.created_at).toMatchObject({ type: "string", format: "date-time" });
    expect(json.properties.mood).toMatchObject({ enum: ["calm", "busy"] });
    expect(json.properties.priority).toMatchObject({ enum: [1, 2] });
    expect(json.properties.label).toMatchObject({ type: "string", maxLength: 40 });
  });

  test("includes inherited columns and leaves relations out", () => {
    expect(Object.keys(zodFromEntity(Owner).shape).sort()).toEqual(["created_at", "id", "name"]);
    expect(Object.keys(zodFromEntity(Pet).shape).sort()).toEqual(["created_at", "id", "name", "owner_id"]);
  });

  test("follows the entity: a column added to it appears in a schema generated afterwards", () => {
    const before = zodFromEntity(Widget);
    expect(Object.keys(before.shape)).toEqual(["id", "name"]);

    // What adding `@Column({ type: "integer", nullable: true }) stock` to the class does.
    Column({ type: "integer", nullable: true })(Widget.prototype, "stock");

    const after = zodFromEntity(Widget);
    expect(Object.keys(after.shape)).toEqual(["id", "name", "stock"]);
    expect(after.safeParse({ id: 1, name: "w", stock: null }).success).toBe(true);
    expect(after.safeParse({ id: 1, name: "w", stock: "many" }).success).toBe(false);
    expect(after.safeParse({ id: 1, name: "w" }).success).toBe(false);
  });

  test("marks the listed columns secret and takes overrides", () => {
    const withOptions = zodFromEntity(Gadget, {
      secret: ["token"],
      overrides: { serial: z.coerce.string() },
    });
    expect(isSecret(withOptions.shape.token)).toBe(true);
    expect(isSecret(withOptions.shape.label)).toBe(false);
    expect(withOptions.parse({ ...validGadget, serial: 42 }).serial).toBe("42");
  });

  test("a secret column is internal: parsed and kept in the model, in no JSON Schema a client sees", () => {
    const withSecret = zodFromEntity(Gadget, { secret: ["token"] });
    expect(isInternal(withSecret.shape.token)).toBe(true);
    expect(isInternal(withSecret.shape.label)).toBe(false);
    expect(withSecret.parse(validGadget).token).toBe(validGadget.token);
    const inputs = z.object({ gadget: withSecret, list: z.array(withSecret.nullable()) });
    const json = generateOpenApiSchemas([{ name: "gadgets:put", inputs, run: async () => null }])["gadgets:put"] as {
      properties: Record<string, { properties?: Record<string, unknown>; required?: string[]; anyOf?: unknown[] }>;
    };
    const described = JSON.stringify(json);
    expect(described).not.toContain('"token"');
    expect(described).not.toContain('"internal"');
    expect(json.properties.gadget!.properties).toHaveProperty("label");
    expect(json.properties.gadget!.required).toContain("label");
  });

  test("names a mistaken option or a class that is not an entity", () => {
    expect(() => zodFromEntity(Gadget, { secret: ["nope" as ColumnKeys<Gadget>] })).toThrow(
      expect.objectContaining<Partial<TypedError>>({
        message: expect.stringContaining('"secret" names "nope", which is not a column of Gadget'),
      }),
    );
    class Plain {
      name = "x";
    }
    expect(() => zodFromEntity(Plain)).toThrow("Plain has no TypeORM columns");
  });

  test("infers the row type from the entity's column properties", () => {
    type Row = z.output<ReturnType<typeof zodFromEntity<Pet>>>;
    const row: Row = { id: 1, name: "Rex", owner_id: null, created_at: new Date() };
    // @ts-expect-error relations are not columns
    const withRelation: Row = { ...row, owner: null };
    expect(zodFromEntity(Pet).parse(withRelation)).toEqual(row);
  });
});
