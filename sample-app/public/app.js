// The chat page: plain browser JavaScript, served as is (no build step), on herald/client, which
// the server serves as ES modules at /herald/client/. Actions are called over HTTP, which carries
// the session cookie; new messages arrive over the WebSocket on the `messages` channel.
import { createClient } from "/herald/client/index.js";

const PAGE_SIZE = 20;

const client = createClient({ url: "" });
const element = (id) => document.getElementById(id);
const list = element("messages");

let me = null;
let olderPage = 2;

function showError(message) {
  const box = element("error");
  box.textContent = message ?? "";
  box.hidden = !message;
}

function showAccount(user) {
  me = user;
  element("account").hidden = !user;
  element("me").textContent = user ? user.name : "";
  element("signed-out").hidden = Boolean(user);
  element("post-form").hidden = !user;
  if (user) element("body").focus();
}

/** Puts a `messages:list` row in its place, newest (highest id) first; a row already shown is skipped. */
function addMessage(row) {
  if (list.querySelector(`li[data-id="${row.id}"]`)) return;
  const item = document.createElement("li");
  item.dataset.id = String(row.id);
  const author = document.createElement("span");
  author.className = "author";
  author.textContent = row.user_name ?? "(deleted user)";
  const body = document.createElement("span");
  body.className = "body";
  body.textContent = row.body; // text, never HTML: a message cannot inject markup
  item.append(author, body);
  const next = [...list.children].find((other) => Number(other.dataset.id) < row.id);
  list.insertBefore(item, next ?? null);
  element("empty").hidden = true;
}

async function loadPage(page) {
  const { messages, pagination } = await client.call("messages:list", { page, limit: PAGE_SIZE });
  messages.forEach(addMessage);
  element("empty").hidden = list.children.length > 0;
  return pagination;
}

/** The newest page: at start, and after each (re)subscription, for what was missed meanwhile. */
async function loadLatest() {
  const pagination = await loadPage(1);
  if (olderPage === 2) element("older").hidden = pagination.pages < 2;
}

function setLive(state, text) {
  const live = element("live");
  live.dataset.state = state;
  live.textContent = text;
}

/** Subscribed once; herald/client reconnects and subscribes again by itself, then says `open`. */
async function connectLive() {
  const socket = client.socket();
  let subscribed = false;
  socket.on("reconnecting", () => setLive("reconnecting", "reconnecting…"));
  socket.on("open", () => {
    if (!subscribed) return;
    setLive("live", "live");
    loadLatest().catch((error) => showError(error.message));
  });
  socket.on("error", (error) => setLive("offline", `not live: ${error.message}`));
  try {
    await socket.opened();
    await socket.subscribe("messages", addMessage);
    subscribed = true;
    setLive("live", "live");
    await loadLatest();
  } catch (error) {
    setLive("offline", `not live: ${error.message}`);
  }
}

/** Runs a form's action, with its button disabled meanwhile and any error shown. */
function onSubmit(form, handler) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    showError(null);
    try {
      await handler(Object.fromEntries(new FormData(form)));
      form.reset();
    } catch (error) {
      if (error.status === 401 && me) showAccount(null);
      showError(error.message);
    } finally {
      button.disabled = false;
    }
  });
}

onSubmit(element("sign-in-form"), async ({ email, password }) => {
  showAccount((await client.call("session:create", { email, password })).user);
});

onSubmit(element("sign-up-form"), async ({ name, email, password }) => {
  await client.call("user:create", { name, email, password });
  showAccount((await client.call("session:create", { email, password })).user);
});

onSubmit(element("post-form"), async ({ body }) => {
  // One key per message: when the answer is lost on the way, the message is sent again with the
  // same key, and the server answers with the first post instead of posting it twice.
  const options = { idempotencyKey: crypto.randomUUID() };
  const post = () => client.call("message:create", { body }, options);
  const { message } = await post().catch((error) => (error instanceof TypeError ? post() : Promise.reject(error)));
  addMessage({ id: message.id, body: message.body, user_name: me.name });
  element("body").focus();
});

element("sign-out").addEventListener("click", async () => {
  showError(null);
  try {
    await client.call("session:destroy");
    showAccount(null);
  } catch (error) {
    showError(error.message);
  }
});

element("older").addEventListener("click", async () => {
  try {
    const pagination = await loadPage(olderPage);
    olderPage += 1;
    element("older").hidden = olderPage > pagination.pages;
  } catch (error) {
    showError(error.message);
  }
});

/**
 * The export button: queues an export (`exports:start`) and follows its job with `tasks:watch`'s
 * Server-Sent Events, its progress in the bar, then a link to the CSV.
 */
element("export-start").addEventListener("click", async () => {
  const button = element("export-start");
  const progress = element("export-progress");
  const status = element("export-status");
  const download = element("export-download");
  showError(null);
  button.disabled = true;
  download.hidden = true;
  try {
    const { handle } = await client.call("exports:start");
    progress.hidden = false;
    progress.removeAttribute("value"); // indeterminate until the first report
    status.textContent = "queued…";
    const events = new EventSource(`/api/jobs/${encodeURIComponent(handle)}/events`);
    const done = (message) => {
      events.close();
      button.disabled = false;
      if (message) showError(message);
    };
    events.addEventListener("message", (event) => {
      const update = JSON.parse(event.data);
      if (update.type === "progress" || (update.type === "status" && update.progress)) {
        const report = update.type === "progress" ? update : update.progress;
        progress.max = report.total || 1;
        progress.value = report.progress;
        status.textContent = report.message ?? `${report.progress} of ${report.total}`;
      } else if (update.type === "completed") {
        progress.max = 1;
        progress.value = 1;
        const { count, csv } = update.result;
        URL.revokeObjectURL(download.href);
        download.href = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
        download.textContent = `Download ${count} message${count === 1 ? "" : "s"} (CSV)`;
        download.hidden = false;
        status.textContent = "done";
        done();
      } else if (update.type === "failed") {
        status.textContent = "";
        done(update.error.message);
      }
    });
    // The stream's own end, or its failure (an `error` event with the error body, or a lost connection).
    events.addEventListener("end", () => done());
    events.addEventListener("error", (event) => done(event.data ? JSON.parse(event.data).error.message : "The export's progress was lost"));
  } catch (error) {
    button.disabled = false;
    progress.hidden = true;
    showError(error.message);
  }
});

client
  .call("session:view")
  .then(({ user }) => showAccount(user))
  .catch((error) => {
    showAccount(null);
    if (error.status !== 401) showError(error.message);
  });
connectLive();
