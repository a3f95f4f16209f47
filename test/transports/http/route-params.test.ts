import { join } from "node:path";
import { z } from "zod";
import { HTTP_METHOD } from "herald";
import { startTestServer } from "herald/testing";
import type { RegisteredAction } from "../../../src/core/registry";
import { compileRoutes } from "../../../src/transports/http/route-table";
import { routeParams } from "../../../src/core/ports/route-params";

/**
 * A route param that the action's inputs do not declare would be dropped by zod (or refused by a
 * strict object) before run ever saw it: the boot fails instead, naming the action and the param.
 */
function registered(route: string | RegExp, inputs?: z.ZodType): RegisteredAction {
  const name = "todo:edit";
  return { name, action: { name, inputs, web: { route, method: HTTP_METHOD.PATCH }, run: () => undefined }, middleware: [] } as unknown as RegisteredAction;
}

const compile = (entry: RegisteredAction) => () => compileRoutes("/api", [entry], (found) => ({ entry: found }));

test("the params of string and RegExp routes are read by name, in optional groups and wildcards too", () => {
  expect(routeParams("/todos/:id{/:part}/*rest")).toEqual([
    { name: "id", wildcard: false, optional: false },
    { name: "part", wildcard: false, optional: true },
    { name: "rest", wildcard: true, optional: false },
  ]);
  expect(routeParams(/^\/files\/(?<name>[\w.-]+)\/(\d+)$/).map((param) => param.name)).toEqual(["name"]);
  expect(routeParams("/todos")).toEqual([]);
});

test.each([
  ["an object without the param", "/todos/:id", z.object({ title: z.string() }), /"id"/],
  ["a strict object without the param", "/todos/:id", z.strictObject({ title: z.string() }), /"id"/],
  ["an optional group's param", "/todos{/:id}", z.object({}), /"id"/],
  ["a wildcard", "/files/*path", z.object({}), /"path"/],
  ["a RegExp's named group", /^\/files\/(?<name>.+)$/, z.object({}), /"name"/],
  ["a pipe from an object", "/todos/:id", z.object({ title: z.string() }).transform((value) => value), /"id"/],
  ["two params, one declared", "/lists/:list/todos/:id", z.object({ list: z.string() }), /param "id"/],
])("a route param missing from %s fails the boot, naming the action and the param", (_case, route, inputs, param) => {
  expect(compile(registered(route, inputs))).toThrow(expect.objectContaining({ type: "SERVER_INITIALIZATION", message: expect.stringMatching(param) }));
  expect(compile(registered(route, inputs))).toThrow(/"todo:edit"/);
});

test.each([
  ["declared", "/todos/:id", z.object({ id: z.coerce.number(), title: z.string() })],
  ["declared on one side of an intersection", "/todos/:id", z.intersection(z.object({ id: z.string() }), z.object({ title: z.string() }))],
  ["kept by a loose object", "/todos/:id", z.looseObject({ title: z.string() })],
  ["kept by a catchall", "/todos/:id", z.object({}).catchall(z.string())],
  ["taken as it comes by an action without inputs", "/todos/:id", undefined],
  ["an unnamed RegExp group, which has no name to declare", /^\/archive\/(\d{4})$/, z.object({})],
])("a route param %s boots", (_case, route, inputs) => {
  expect(compile(registered(route, inputs))).not.toThrow();
});

test("an app whose action leaves its route param out of its inputs does not start", async () => {
  const failure = startTestServer({ appDir: join(__dirname, "../../fixtures/apps/http-undeclared-route-param"), env: { LOG_LEVEL: "fatal" } });
  await expect(failure).rejects.toMatchObject({ type: "SERVER_INITIALIZATION" });
  await expect(failure).rejects.toThrow(/The web route \/todos\/:id of "todo:edit" has the path param "id", which its inputs do not declare/);
});
