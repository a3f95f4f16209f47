import { rootContainer } from "herald";
import { {{className}} } from "{{importPath}}";

test("{{className}} is one instance per server: what one caller keeps, the next one sees", () => {
  const container = rootContainer.createChildContainer();
  container.resolve({{className}}).remember("first call");
  expect(container.resolve({{className}}).remember("second call")).toEqual(["first call", "second call"]);
});
