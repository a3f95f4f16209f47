import { Connection, CONNECTION_TYPE } from "herald";
import { {{className}} } from "{{importPath}}";

test("{{className}} lets a connection subscribe to {{channelName}}", async () => {
  const channel = new {{className}}();
  const connection = new Connection({ type: CONNECTION_TYPE.websocket });
  await expect(channel.authorize("{{channelName}}", connection)).resolves.toBe(true);
});
