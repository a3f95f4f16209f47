import type { ResponseObject, SchemaObject } from "openapi3-ts/oas31";
import type { ActionMiddleware, MiddlewareSecurity } from "herald";
import { buildOpenApiDocument, ErrorType, HTTP_METHOD } from "herald";
import type { ActionDefinition } from "../../src/core/action";
import { validateOpenApi } from "./support/validate-openapi";

const apiKey: MiddlewareSecurity = { name: "apiKey", scheme: { type: "apiKey", in: "header", name: "x-api-key" } };
const bearer: MiddlewareSecurity = { name: "bearer", scheme: { type: "http", scheme: "bearer" } };
const session: MiddlewareSecurity = { name: "session", scheme: { type: "apiKey", in: "cookie", name: "herald.sid" } };

const guard = (...security: MiddlewareSecurity[]): ActionMiddleware => ({
  security,
  errors: { CONNECTION_NOT_AUTHENTICATED: true },
  runBefore: async () => undefined,
});
const logger: ActionMiddleware = { runBefore: async () => undefined };

function action(name: string, route: string, middleware: ActionMiddleware[] = []): ActionDefinition {
  return { name, web: { route, method: HTTP_METHOD.GET }, middleware, run: async () => null };
}

const actions = [
  action("public:read", "/public", [logger]),
  action("admin:read", "/admin", [guard(apiKey)]),
  action("either:read", "/either", [guard(apiKey, bearer)]),
  action("both:read", "/both", [guard(session), guard(apiKey, bearer)]),
];

describe("security in the OpenAPI document", () => {
  const document = buildOpenApiDocument(actions);

  test("declares every scheme a middleware accepts, once", () => {
    expect(document.components?.securitySchemes).toEqual({
      apiKey: apiKey.scheme,
      bearer: bearer.scheme,
      session: session.scheme,
    });
  });

  test("an operation no middleware guards is public, said explicitly", () => {
    expect(document.paths!["/api/public"]!.get!.security).toEqual([]);
  });

  test("a guarded operation requires one of its middleware's credentials, and every guarding middleware", () => {
    expect(document.paths!["/api/admin"]!.get!.security).toEqual([{ apiKey: [] }]);
    expect(document.paths!["/api/either"]!.get!.security).toEqual([{ apiKey: [] }, { bearer: [] }]);
    expect(document.paths!["/api/both"]!.get!.security).toEqual([
      { session: [], apiKey: [] },
      { session: [], bearer: [] },
    ]);
  });

  test("a guarded operation lists the 401 its middleware declares; a public one does not", () => {
    const unauthorized = document.paths!["/api/admin"]!.get!.responses!["401"] as ResponseObject;
    const narrowed = (unauthorized.content!["application/json"]!.schema as SchemaObject).allOf![1] as SchemaObject;
    expect(narrowed.properties!.error).toMatchObject({ properties: { type: { enum: [ErrorType.CONNECTION_NOT_AUTHENTICATED] } } });
    expect(document.paths!["/api/public"]!.get!.responses).not.toHaveProperty("401");
  });

  test("global middleware guard every operation", () => {
    const guarded = buildOpenApiDocument(actions, { globalMiddleware: [guard(session)] });
    expect(guarded.paths!["/api/public"]!.get!.security).toEqual([{ session: [] }]);
    // What a global middleware declares joins every operation's errors.
    expect(guarded.paths!["/api/public"]!.get!.responses).toHaveProperty("401");
    expect(guarded.paths!["/api/admin"]!.get!.security).toEqual([{ session: [], apiKey: [] }]);
  });

  test("the document stays valid OpenAPI 3.1", async () => {
    await expect(validateOpenApi(document)).resolves.toEqual({ valid: true });
  });

  test("two different schemes under one name are refused", () => {
    const clash: MiddlewareSecurity = { name: "apiKey", scheme: { type: "apiKey", in: "query", name: "key" } };
    expect(() => buildOpenApiDocument([action("a:one", "/one", [guard(apiKey)]), action("a:two", "/two", [guard(clash)])])).toThrow(
      expect.objectContaining({ type: ErrorType.SERVER_INITIALIZATION, message: expect.stringContaining('"apiKey"') }),
    );
  });
});
