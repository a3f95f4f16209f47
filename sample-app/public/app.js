// The chat page: plain browser JavaScript, served as is (no build step).
// Actions are called over HTTP (`/api/...`), which carries the session cookie; new messages
// arrive over the WebSocket (`/ws`) on the `messages` channel.
"use strict";

(() => {
  const PAGE_SIZE = 20;
  const RECONNECT_MAX_MS = 10_000;

  const element = (id) => document.getElementById(id);
  const list = element("messages");

  let me = null;
  let olderPage = 2;
  let reconnectDelay = 500;

  class ApiError extends Error {
    constructor(status, error) {
      super(error?.message ?? `The server answered ${status}`);
      this.status = status;
      this.type = error?.type;
    }
  }

  async function api(method, path, body) {
    const response = await fetch(`/api${path}`, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new ApiError(response.status, json.error);
    return json;
  }

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
    const { messages, pagination } = await api("GET", `/messages/list?page=${page}&limit=${PAGE_SIZE}`);
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

  function connectLive() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ messageType: "subscribe", messageId: "subscribe-messages", channel: "messages" }));
    });
    socket.addEventListener("message", (event) => {
      const data = JSON.parse(event.data);
      if (data.messageId === "subscribe-messages") {
        if (data.subscribed) {
          reconnectDelay = 500;
          setLive("live", "live");
          loadLatest().catch((error) => showError(error.message));
        } else {
          setLive("offline", `not live: ${data.error?.message ?? "refused"}`);
        }
      } else if (data.messageType === "message" && data.channel === "messages") {
        addMessage(data.message);
      }
    });
    socket.addEventListener("close", () => {
      setLive("reconnecting", "reconnecting…");
      setTimeout(connectLive, reconnectDelay);
      reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_MS);
    });
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
    showAccount((await api("PUT", "/session", { email, password })).user);
  });

  onSubmit(element("sign-up-form"), async ({ name, email, password }) => {
    await api("PUT", "/user", { name, email, password });
    showAccount((await api("PUT", "/session", { email, password })).user);
  });

  onSubmit(element("post-form"), async ({ body }) => {
    const { message } = await api("PUT", "/message", { body });
    addMessage({ id: message.id, body: message.body, user_name: me.name });
    element("body").focus();
  });

  element("sign-out").addEventListener("click", async () => {
    showError(null);
    try {
      await api("DELETE", "/session");
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

  api("GET", "/session")
    .then(({ user }) => showAccount(user))
    .catch((error) => {
      showAccount(null);
      if (error.status !== 401) showError(error.message);
    });
  connectLive();
})();
