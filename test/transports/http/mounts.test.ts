import { useTestServer, serverUrl } from "herald/testing";
import { HTTP_APP } from "./fixture";

useTestServer({ appDir: HTTP_APP, env: { LOG_LEVEL: "fatal" } });

test("a mount receives the request as it arrived, its JSON body parsed when it asked", async () => {
  const response = await fetch(`${serverUrl()}/hooks/deliveries?x=1`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ event: "push" }),
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ url: "/hooks/deliveries?x=1", method: "POST", body: { event: "push" } });
  expect(response.headers.get("x-request-id")).toBeTruthy();
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
});

test("the longest mount path wins, and a mount without parseJson reads the body itself", async () => {
  const response = await fetch(`${serverUrl()}/hooks/raw/1`, { method: "POST", body: "hello" });
  expect(await response.text()).toBe("raw:/hooks/raw/1:hello");
});

test("a mount path matches whole segments only", async () => {
  const response = await fetch(`${serverUrl()}/hooksmith`);
  expect(response.status).toBe(404);
});

test("malformed JSON to a parseJson mount is 400 with the core error body", async () => {
  const response = await fetch(`${serverUrl()}/hooks`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{" });
  expect(response.status).toBe(400);
  expect((await response.json()).error.type).toBe("CONNECTION_ACTION_PARAM_FORMATTING");
});

test("a mount that throws is 500 with the core error body", async () => {
  const response = await fetch(`${serverUrl()}/broken-hook`);
  expect(response.status).toBe(500);
  expect((await response.json()).error).toMatchObject({ type: "CONNECTION_ACTION_RUN", message: "hook exploded" });
});
