import { HTTP_BASELINES, measureHttpServers } from "../../bench/lib/http-rounds";
import { HELLO_PATH } from "../../bench/shared/hello";

const HONO = HTTP_BASELINES.find((baseline) => baseline.subject === "hono")!;

describe("the HTTP scenarios' answer check", () => {
  it("refuses a subject whose answer is not the scenario's JSON, before loading it", async () => {
    const measured = measureHttpServers({
      subjects: [HONO],
      path: HELLO_PATH,
      answer: { hello: "everyone" },
      settings: { rounds: 1, warmupSeconds: 0, durationSeconds: 0.2, connections: 1 },
      log: () => undefined,
    });
    await expect(measured).rejects.toThrow(`Hono 4 answered http://127.0.0.1:`);
    await expect(measured).rejects.toThrow(`${HELLO_PATH} with 200 {"hello":"world"}, not {"hello":"everyone"}`);
  }, 60_000);
});
