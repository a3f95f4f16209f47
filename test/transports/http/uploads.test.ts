import { useTestServer, serverUrl } from "herald/testing";
import { HTTP_APP } from "./fixture";

useTestServer({ appDir: HTTP_APP });

const uploads = () => `${serverUrl()}/api/uploads`;

test("an uploaded file reaches the action as a web File, validated by z.file()", async () => {
  const form = new FormData();
  form.append("title", "Minutes");
  form.append("document", new File(["line one\nline two"], "minutes.txt", { type: "text/plain" }));
  const response = await fetch(uploads(), { method: "POST", body: form });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({
    title: "Minutes",
    document: { name: "minutes.txt", type: "text/plain", size: 17, text: "line one\nline two" },
    photos: [],
  });
});

test("a field sent with several files reaches the action as an array of Files", async () => {
  const form = new FormData();
  form.append("title", "Holiday");
  form.append("document", new File(["notes"], "notes.txt", { type: "text/plain" }));
  form.append("photos", new File(["first"], "1.png", { type: "image/png" }));
  form.append("photos", new File(["second"], "2.png", { type: "image/png" }));
  const body = await (await fetch(uploads(), { method: "POST", body: form })).json();
  expect(body.photos).toEqual([
    { name: "1.png", type: "image/png", size: 5, text: "first" },
    { name: "2.png", type: "image/png", size: 6, text: "second" },
  ]);
});

test("a file of the wrong type fails validation with 422", async () => {
  const form = new FormData();
  form.append("title", "Minutes");
  form.append("document", new File(["%PDF"], "minutes.pdf", { type: "application/pdf" }));
  const response = await fetch(uploads(), { method: "POST", body: form });
  expect(response.status).toBe(422);
  expect((await response.json()).error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "document" });
});

test("a missing file is 422 CONNECTION_ACTION_PARAM_REQUIRED", async () => {
  const form = new FormData();
  form.append("title", "Minutes");
  const response = await fetch(uploads(), { method: "POST", body: form });
  expect(response.status).toBe(422);
  expect((await response.json()).error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_REQUIRED", key: "document" });
});

test("a text field cannot stand in for a file", async () => {
  const form = new FormData();
  form.append("title", "Minutes");
  form.append("document", "just text");
  const response = await fetch(uploads(), { method: "POST", body: form });
  expect(response.status).toBe(422);
});
