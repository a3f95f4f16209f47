import { rootContainer } from "herald";
import { {{className}} } from "{{importPath}}";

test("{{className}} is resolved by the container", () => {
  const container = rootContainer.createChildContainer();
  expect(container.resolve({{className}})).toBeInstanceOf({{className}});
});
