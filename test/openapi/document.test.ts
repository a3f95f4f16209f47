import { z } from "zod";
import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, RequestBodyObject, ResponseObject, SchemaObject } from "openapi3-ts/oas31";
import { buildOpenApiDocument, ErrorStatusCodes, ErrorType, errorBody, generateOpenApiSchemas, HTTP_METHOD, TypedError } from "herald";
import type { ActionDefinition } from "../../src/core/action";
import { fixtureActions } from "./support/fixture-actions";
import { validateOpenApi } from "./support/validate-openapi";
import { UNLISTED_ROUTES_EXTENSION } from "../../src/openapi/document";

const document = buildOpenApiDocument(fixtureActions(), { title: "Fixture", version: "1.2.3" });

function operation(path: string, method: "get" | "put" | "post" | "patch" | "delete"): OperationObject {
  const found = document.paths?.[path]?.[method];
  if (!found) throw new Error(`no ${method.toUpperCase()} ${path} in the document`);
  return found;
}

function parameters(op: OperationObject): ParameterObject[] {
  return (op.parameters ?? []) as ParameterObject[];
}

/** Follows a local `$ref` (`#/components/…`) through the document. */
function resolve<T>(value: T | ReferenceObject, root: object = document): T {
  if (!value || typeof value !== "object" || !("$ref" in value)) return value as T;
  let target: unknown = root;
  for (const segment of value.$ref.slice(2).split("/")) {
    target = (target as Record<string, unknown>)[segment.replace(/~1/g, "/").replace(/~0/g, "~")];
    if (target === undefined) throw new Error(`unresolvable $ref ${value.$ref}`);
  }
  return target as T;
}

function bodySchema(op: OperationObject, mediaType = "application/json"): SchemaObject {
  const body = op.requestBody as RequestBodyObject;
  return resolve<SchemaObject>(body.content[mediaType]!.schema!);
}

describe("the OpenAPI document of the fixture app", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info).toMatchObject({ title: "Fixture", version: "1.2.3" });
    await expect(validateOpenApi(document)).resolves.toEqual({ valid: true });
    // The validator does reject a broken document, so the pass above means something.
    const broken = { ...document, paths: { "/api/x": { get: { responses: { "200": { content: {} } } } } } };
    await expect(validateOpenApi(broken)).resolves.toMatchObject({ valid: false });
  });

  test("every $ref points at something in the document", () => {
    const references: string[] = [];
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(collect);
      if (!value || typeof value !== "object") return;
      for (const [key, inner] of Object.entries(value)) {
        if (key === "$ref" && typeof inner === "string") references.push(inner);
        else collect(inner);
      }
    };
    collect(document);
    expect(references.length).toBeGreaterThan(10);
    for (const $ref of references) expect(() => resolve({ $ref })).not.toThrow();
  });

  test("lists every web action once under /api, and no action without a route", () => {
    const operationIds = Object.values(document.paths ?? {}).flatMap((item) =>
      Object.values(item).map((op) => (op as OperationObject).operationId),
    );
    expect(operationIds.sort()).toEqual([
      "archive:read",
      "feed:stream",
      "files:get",
      "health:ping",
      "messages:list",
      "oops:fail",
      "posts:list",
      "posts:list_2",
      "slow:wait",
      "tree:save",
      "user:create",
      "user:delete",
      "user:update",
      "user:view",
    ]);
    expect(Object.keys(document.paths ?? {}).every((path) => path.startsWith("/api/"))).toBe(true);
  });

  test("an operation carries the action's name, description and group; its summary, the line a reference page shows, is the description", () => {
    expect(operation("/api/user", "put")).toMatchObject({
      operationId: "user:create",
      summary: "Sign up",
      description: "Sign up",
      tags: ["user"],
    });
  });

  test(":param segments become required path parameters typed by the inputs", () => {
    for (const method of ["get", "patch", "delete"] as const) {
      const id = parameters(operation("/api/user/{id}", method)).find((param) => param.name === "id");
      expect(id).toMatchObject({ in: "path", required: true, schema: { type: "integer", minimum: 1 } });
    }
  });

  test("GET inputs are query parameters, required only when the schema requires them", () => {
    const list = parameters(operation("/api/messages/list", "get"));
    expect(list).toEqual([
      expect.objectContaining({ name: "page", in: "query", required: false, schema: expect.objectContaining({ type: "integer", default: 1 }) }),
      expect.objectContaining({ name: "limit", in: "query", required: false, schema: expect.objectContaining({ default: 10, maximum: 50 }) }),
    ]);
    const fields = parameters(operation("/api/user/{id}", "get")).find((param) => param.name === "fields");
    expect(fields).toMatchObject({ in: "query", required: false, style: "form", explode: true, schema: { type: "array" } });
    expect(operation("/api/user/{id}", "get").requestBody).toBeUndefined();
  });

  test("DELETE inputs are query parameters too", () => {
    const remove = operation("/api/user/{id}", "delete");
    expect(remove.requestBody).toBeUndefined();
    expect(parameters(remove).map((param) => `${param.in}:${param.name}`)).toEqual(["path:id"]);
  });

  test("PUT, POST and PATCH inputs are a JSON or urlencoded body; multipart only where inputs take files", () => {
    const create = operation("/api/user", "put");
    const body = create.requestBody as RequestBodyObject;
    expect(body.required).toBe(true);
    expect(Object.keys(body.content)).toEqual(["application/json", "application/x-www-form-urlencoded"]);
    expect(body.content["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/user.create.inputs" });
    expect(bodySchema(create)).toMatchObject({
      type: "object",
      required: ["name", "email", "password"],
      properties: { name: { type: "string", minLength: 3, description: "Display name" }, email: { format: "email" } },
    });
    expect(create.parameters).toBeUndefined();
  });

  test("an action whose inputs take files also takes a multipart body", () => {
    const upload: ActionDefinition = {
      name: "files:upload",
      inputs: z.object({ title: z.string(), document: z.file() }),
      web: { route: "/files", method: HTTP_METHOD.POST },
      run: async () => undefined,
    };
    const body = buildOpenApiDocument([upload]).paths!["/api/files"]!.post!.requestBody as RequestBodyObject;
    expect(Object.keys(body.content)).toEqual(["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]);
  });

  test("a body leaves out the fields the path carries", () => {
    const update = operation("/api/user/{id}", "patch");
    const schema = bodySchema(update);
    expect(Object.keys(schema.properties ?? {})).toEqual(["name", "password"]);
    expect(schema.required).toBeUndefined();
    expect((update.requestBody as RequestBodyObject).required).toBe(false);
    expect(parameters(update).map((param) => `${param.in}:${param.name}`)).toEqual(["path:id"]);
  });

  test("secret fields are writeOnly passwords, wherever they appear", () => {
    const create = bodySchema(operation("/api/user", "put")).properties!.password;
    const update = bodySchema(operation("/api/user/{id}", "patch")).properties!.password;
    for (const password of [create, update]) {
      expect(password).toMatchObject({ type: "string", writeOnly: true, format: "password", minLength: 8 });
      expect(password).not.toHaveProperty("secret");
    }
    expect(JSON.stringify(document)).not.toContain('"secret"');
  });

  test("a RegExp route of literal text and named groups is documented as a path", () => {
    const name = parameters(operation("/api/files/{name}", "get"))[0];
    expect(name).toMatchObject({ name: "name", in: "path", required: true, schema: { type: "string", pattern: "^(?:[\\w.-]+)$" } });
  });

  test("a RegExp route no path can express is listed, with the reason, instead of guessed", () => {
    expect(document[UNLISTED_ROUTES_EXTENSION]).toEqual([expect.stringContaining("legacy:any (GET /^\\/legacy.*/")]);
    expect(document.info.description).toContain("legacy:any");
    expect(Object.keys(document.paths ?? {}).some((path) => path.includes("legacy"))).toBe(false);
  });

  test("a wildcard is one path parameter that may span segments", () => {
    const path = parameters(operation("/api/archive/{path}", "get"))[0];
    expect(path).toMatchObject({ name: "path", in: "path", required: true, description: "May span several path segments." });
  });

  test("an optional group yields the path with and the path without it", () => {
    expect(operation("/api/posts/{tag}", "get").operationId).toBe("posts:list");
    expect(parameters(operation("/api/posts/{tag}", "get")).map((param) => `${param.in}:${param.name}`)).toEqual(["path:tag"]);
    expect(operation("/api/posts", "get").operationId).toBe("posts:list_2");
    expect(parameters(operation("/api/posts", "get")).map((param) => `${param.in}:${param.name}`)).toEqual(["query:tag"]);
  });

  test("a recursive input schema keeps its references inside its component", () => {
    const tree = document.components!.schemas!["tree.save.inputs"] as SchemaObject;
    expect(tree.properties!.root).toEqual({ $ref: "#/components/schemas/tree.save.inputs/$defs/__schema0" });
    const node = resolve<SchemaObject>(tree.properties!.root!);
    expect(resolve<SchemaObject>(node.properties!.children!)).toMatchObject({ type: "array" });
  });

  test("success is 200 with the returned JSON; a streaming action answers with Server-Sent Events", () => {
    expect(operation("/api/ping", "get").responses!["200"]).toMatchObject({ content: { "application/json": {} } });
    expect(operation("/api/feed", "get").responses!["200"]).toMatchObject({ content: { "text/event-stream": {} } });
  });

  test("each operation lists exactly its declared errors' statuses", () => {
    const statuses = (path: string, method: "get" | "put" | "post" | "patch" | "delete") =>
      Object.keys(operation(path, method).responses ?? {});
    // Every call: params too deep (400) or too many (413), too many calls in flight (429), a failure (500), a service down or busy (503).
    // A body can also be malformed (400), too large (413) or of a type the inputs do not read (415); inputs can fail validation (422);
    // user:create declares CONNECTION_CONFLICT (409).
    expect(statuses("/api/user", "put")).toEqual(["200", "400", "409", "413", "415", "422", "429", "500", "503", "504"]);
    expect(statuses("/api/messages/list", "get")).toEqual(["200", "400", "413", "422", "429", "500", "503", "504"]);
    expect(statuses("/api/ping", "get")).toEqual(["200", "400", "413", "429", "500", "503", "504"]);
    // timeout: 0 disables the timeout, so it cannot time out (504).
    expect(statuses("/api/feed", "get")).toEqual(["200", "400", "413", "429", "500", "503"]);
    // user:view declares CONNECTION_NOT_FOUND (404); nothing is left to a catch-all `default`.
    expect(statuses("/api/user/{id}", "get")).toEqual(["200", "400", "404", "413", "422", "429", "500", "503", "504"]);
  });

  test("an error response narrows type to the operation's declared types of its status, and value to their schemas", () => {
    // Both 422 types are declared: the shared response says no more.
    expect(operation("/api/user", "put").responses!["422"]).toEqual({ $ref: "#/components/responses/UnprocessableEntity" });
    const narrowedError = (response: ResponseObject) =>
      ((response.content!["application/json"]!.schema as SchemaObject).allOf![1] as SchemaObject).properties!.error as SchemaObject;
    const notFound = operation("/api/user/{id}", "get").responses!["404"] as ResponseObject;
    expect(narrowedError(notFound)).toMatchObject({ properties: { type: { const: "CONNECTION_NOT_FOUND" }, value: { type: "integer" } }, required: ["value"] });
    const failed = operation("/api/ping", "get").responses!["500"] as ResponseObject;
    expect((narrowedError(failed).properties!.type as SchemaObject).enum).toEqual([ErrorType.CONNECTION_ACTION_RUN, ErrorType.CONNECTION_SERVER_ERROR]);
    // A type with a value schema gets a branch of its own: SERVICE_BUSY says when to retry.
    const unavailable = operation("/api/ping", "get").responses!["503"] as ResponseObject;
    const branches = ((unavailable.content!["application/json"]!.schema as SchemaObject).allOf![1] as SchemaObject).anyOf as SchemaObject[];
    expect(branches.map((branch) => (branch.properties!.error as SchemaObject).properties!.type)).toEqual([
      { enum: [ErrorType.CONNECTION_SERVICE_UNAVAILABLE] },
      { const: ErrorType.CONNECTION_SERVICE_BUSY },
    ]);
  });

  test("each shared error response narrows the error type to the types of its status", () => {
    const responses = document.components!.responses!;
    for (const [name, status] of [["BadRequest", 400], ["NotFound", 404], ["MethodNotAllowed", 405], ["PayloadTooLarge", 413], ["UnsupportedMediaType", 415], ["UnprocessableEntity", 422], ["InternalServerError", 500]] as const) {
      const response = responses[name] as ResponseObject;
      const schema = response.content!["application/json"]!.schema as SchemaObject;
      const narrowed = (schema.allOf![1] as SchemaObject).properties!.error as SchemaObject;
      // Only an action that asks its caller for input, and declares it, answers CONNECTION_INPUT_REQUIRED.
      const expected = Object.values(ErrorType).filter((type) => ErrorStatusCodes[type] === status && type !== ErrorType.CONNECTION_INPUT_REQUIRED);
      expect((narrowed.properties!.type as SchemaObject).enum).toEqual(expected);
      expect(schema.allOf![0]).toEqual({ $ref: "#/components/schemas/ErrorBody" });
    }
    expect((responses.MethodNotAllowed as ResponseObject).headers).toHaveProperty("Allow");
  });

  describe("the ErrorBody component", () => {
    const errorBodyComponent = z.fromJSONSchema(document.components!.schemas!.ErrorBody as z.core.JSONSchema.JSONSchema);

    test("accepts the body the core writes for every error type, with and without its optional parts", () => {
      for (const type of Object.values(ErrorType)) {
        const full = new TypedError({ message: "failed", type, key: "email", value: { any: ["json"] }, issues: [{ path: ["email", 0], message: "Invalid email", code: "invalid_format" }] });
        const bare = new TypedError({ message: "failed", type });
        for (const body of [errorBody(full, false), errorBody(full, true), errorBody(bare, true)]) {
          expect(errorBodyComponent.safeParse(JSON.parse(JSON.stringify(body))).success).toBe(true);
        }
      }
    });

    test("rejects what the core never writes", () => {
      const body = JSON.parse(JSON.stringify(errorBody(new TypedError({ message: "x", type: ErrorType.CONNECTION_ACTION_RUN }), true)));
      expect(errorBodyComponent.safeParse({ ...body, extra: 1 }).success).toBe(false);
      expect(errorBodyComponent.safeParse({ error: { ...body.error, type: "SOMETHING_ELSE" } }).success).toBe(false);
      expect(errorBodyComponent.safeParse({ error: { ...body.error, timestamp: "yesterday" } }).success).toBe(false);
      expect(errorBodyComponent.safeParse({ error: { message: "x", type: ErrorType.CONNECTION_ACTION_RUN } }).success).toBe(false);
    });
  });
});

describe("buildOpenApiDocument options", () => {
  const ping: ActionDefinition = {
    name: "health:ping",
    web: { route: "/ping", method: HTTP_METHOD.GET },
    run: async () => ({ pong: true }),
  };

  test("the summary is the first line of a longer description, and the action's name when there is none", () => {
    const summary = (action: ActionDefinition) => buildOpenApiDocument([action]).paths!["/api/ping"]!.get!;
    const described = summary({ ...ping, description: "  Answers pong.\nUseful to see that the server is up.\n" });
    expect(described).toMatchObject({ operationId: "health:ping", summary: "Answers pong.", description: "  Answers pong.\nUseful to see that the server is up.\n" });
    const bare = summary(ping);
    expect(bare).toMatchObject({ operationId: "health:ping", summary: "health:ping" });
    expect(bare).not.toHaveProperty("description");
  });

  test("the prefix is normalized and applied to every path", () => {
    expect(Object.keys(buildOpenApiDocument([ping], { prefix: "v2/" }).paths ?? {})).toEqual(["/v2/ping"]);
    expect(Object.keys(buildOpenApiDocument([ping], { prefix: "/" }).paths ?? {})).toEqual(["/ping"]);
  });

  test("schemas given (from the cache) are used instead of generated ones", () => {
    const withInputs: ActionDefinition = { ...ping, name: "health:check", inputs: z.object({ deep: z.boolean() }) };
    const schemas = { "health:check": { type: "object", properties: { fromCache: { type: "string" } } } } as const;
    const doc: OpenAPIObject = buildOpenApiDocument([withInputs], { schemas });
    expect(parameters(doc.paths!["/api/ping"]!.get!).map((param) => param.name)).toEqual(["fromCache"]);
    expect(generateOpenApiSchemas([withInputs])["health:check"]).toMatchObject({ properties: { deep: { type: "boolean" } } });
  });

  test("two actions on one path and method: the first is documented, the second listed", () => {
    const clash: ActionDefinition = { ...ping, name: "health:zzz", web: { route: "ping", method: HTTP_METHOD.GET } };
    expect(buildOpenApiDocument([ping, clash])[UNLISTED_ROUTES_EXTENSION]).toEqual([
      "health:zzz (GET /api/ping: already documented for another action)",
    ]);
  });

  test("RegExp routes: literal text, escapes, named groups and a trailing optional slash become a path", () => {
    const routes: [RegExp, string | undefined][] = [
      [/^\/orders\/(?<id>\d+)\/?$/, "/api/orders/{id}"],
      [/^\/feed\.json$/, "/api/feed.json"],
      [/^\/a\/(?<x>[a-z]+)-(?<y>[a-z]+)$/, "/api/a/{x}-{y}"],
      [/^\/b|\/c$/, undefined],
      [/\/unanchored/, undefined],
      [/^\/d\/(\d+)$/, undefined],
    ];
    routes.forEach(([route, expected], index) => {
      const action: ActionDefinition = { ...ping, name: `regexp:case${index}`, web: { route, method: HTTP_METHOD.GET } };
      const doc = buildOpenApiDocument([action]);
      if (expected) expect(Object.keys(doc.paths ?? {})).toEqual([expected]);
      else expect(doc[UNLISTED_ROUTES_EXTENSION]).toEqual([expect.stringContaining(`regexp:case${index} (GET ${String(route)}`)]);
    });
    const orders = buildOpenApiDocument([{ ...ping, web: { route: routes[0]![0], method: HTTP_METHOD.GET } }]);
    expect(orders.paths!["/api/orders/{id}"]!.get!.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^(?:\\d+)$" } },
    ]);
  });

  test("a schema that is not a plain object is sent as one exploded query object", () => {
    const either: ActionDefinition = {
      ...ping,
      name: "health:either",
      inputs: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]) as never,
    };
    const param = buildOpenApiDocument([either]).paths!["/api/ping"]!.get!.parameters![0];
    expect(param).toEqual({ name: "params", in: "query", style: "form", explode: true, schema: { $ref: "#/components/schemas/health.either.inputs" } });
  });
});
