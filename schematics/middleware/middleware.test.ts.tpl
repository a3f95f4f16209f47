import { Connection, CONNECTION_TYPE } from "herald";
import { {{className}} } from "{{importPath}}";

test("{{className}} lets a call through unchanged", async () => {
  const middleware = new {{className}}();
  const connection = new Connection({ type: CONNECTION_TYPE.cli });
  await expect(middleware.runBefore({ id: 1 }, connection)).resolves.toBeUndefined();
  await expect(middleware.runAfter({ id: 1 }, connection)).resolves.toBeUndefined();
});
{{globalTest}}