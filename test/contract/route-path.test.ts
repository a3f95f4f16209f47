import { documentRoute } from "../../src/contract/route-path";

const templates = (route: string) => {
  const documented = documentRoute(route);
  return "paths" in documented ? documented.paths.map((path) => path.template) : documented.unlisted;
};

test("params and wildcards become OpenAPI params, read as Express 5's router reads the route", () => {
  expect(documentRoute("/user/:id/files/*path")).toEqual({
    paths: [{ template: "/user/{id}/files/{path}", params: [{ name: "id" }, { name: "path", wildcard: true }] }],
  });
});

test("each optional group gives a path with it and one without, the fullest first", () => {
  expect(templates("/a{/:b}{/:c}")).toEqual(["/a/{b}/{c}", "/a/{b}", "/a/{c}", "/a"]);
  expect(templates("/files{/:dir{.:ext}}")).toEqual(["/files/{dir}.{ext}", "/files/{dir}", "/files"]);
});

test("an escaped colon is text, not a param", () => {
  expect(documentRoute("/time\\:now")).toEqual({ paths: [{ template: "/time:now", params: [] }] });
});

test("a route the router cannot read is listed with the reason, not documented", () => {
  expect(templates("/broken/{:id")).toEqual(expect.stringContaining("/broken/{:id: "));
});
