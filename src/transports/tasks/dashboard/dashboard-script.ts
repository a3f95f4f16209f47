/**
 * The dashboard page's script, served as a file (`dashboard.js`) so that the default
 * Content-Security-Policy (`script-src 'self'`, no inline script) lets it run. Plain ES2020 for
 * any current browser. Every value from a job reaches the page as `textContent`, never as HTML.
 */
export const DASHBOARD_SCRIPT = String.raw`(function () {
  "use strict";
  var body = document.body;
  var api = body.dataset.api || "";
  var header = body.dataset.credentialHeader || "";
  var headerPrefix = body.dataset.credentialPrefix || "";
  var storageKey = "herald-tasks-dashboard:" + location.pathname;
  var credential = header ? sessionStorage.getItem(storageKey) || "" : "";
  var COUNTS = ["waiting", "active", "delayed", "failed", "completed"];
  var REFRESH_MS = 5000;
  var loads = 0;
  var loading = null;

  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function call(method, route, params) {
    var headers = { Accept: "application/json" };
    if (header && credential) headers[header] = headerPrefix + credential;
    var init = { method: method, headers: headers, credentials: "same-origin" };
    var url = api + route;
    if (method === "GET") {
      var query = new URLSearchParams(params || {}).toString();
      if (query) url += "?" + query;
    } else {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(params || {});
    }
    return fetch(url, init).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (response.ok) return answer;
        var error = new Error((answer && answer.error && answer.error.message) || "HTTP " + response.status);
        error.status = response.status;
        throw error;
      });
    });
  }

  function setState(state, text) {
    var status = document.getElementById("state");
    status.dataset.state = state;
    status.textContent = text || "";
  }

  function showProblem(error) {
    var problem = document.getElementById("problem");
    problem.textContent = error.message;
    problem.hidden = false;
    setState("failed", "");
    if (header && (error.status === 401 || error.status === 403)) document.getElementById("credential").hidden = false;
  }

  function showNotice(text) {
    var notice = document.getElementById("notice");
    notice.textContent = text;
    notice.hidden = false;
  }

  function when(iso) {
    return iso ? new Date(iso).toLocaleString() : "\u2014";
  }

  function renderQueues(queues) {
    var rows = queues.map(function (counts) {
      var row = element("tr");
      row.dataset.queue = counts.queue;
      row.append(element("th", counts.queue));
      COUNTS.forEach(function (name) {
        var cell = element("td", counts[name], "count");
        cell.dataset.count = name;
        row.append(cell);
      });
      return row;
    });
    document.querySelector("#queues tbody").replaceChildren.apply(document.querySelector("#queues tbody"), rows);
    document.getElementById("no-queues").hidden = queues.length > 0;
  }

  function renderSchedules(schedules) {
    var rows = schedules.map(function (schedule) {
      var row = element("tr");
      row.dataset.action = schedule.action;
      var how = schedule.cron !== undefined ? "cron " + schedule.cron + (schedule.timezone ? " (" + schedule.timezone + ")" : "") : "every " + schedule.every / 1000 + " s";
      var last = schedule.lastRun;
      var lastCell = element("td", last ? when(last.queuedAt) + " \u00b7 " + (last.status || "forgotten") : "never");
      lastCell.dataset.field = "last-run";
      if (last) lastCell.title = "job " + last.jobId;
      var nextCell = element("td", when(schedule.nextRun));
      nextCell.dataset.field = "next-run";
      row.append(element("th", schedule.action), element("td", schedule.queue), element("td", how), lastCell, nextCell);
      return row;
    });
    document.querySelector("#schedules tbody").replaceChildren.apply(document.querySelector("#schedules tbody"), rows);
    document.getElementById("no-schedules").hidden = schedules.length > 0;
  }

  function button(verb, label, job) {
    var control = element("button", label);
    control.type = "button";
    control.dataset.verb = verb;
    control.dataset.queue = job.queue;
    control.dataset.jobId = job.id;
    return control;
  }

  function renderFailures(failures) {
    var rows = failures.map(function (job) {
      var row = element("tr");
      row.dataset.jobId = job.id;
      var error = job.error;
      var errorCell = element("td");
      errorCell.dataset.field = "error";
      if (error) {
        errorCell.append(element("code", error.type), document.createTextNode(" "), element("span", error.message));
        if (error.key) errorCell.append(document.createTextNode(" "), element("code", "key: " + error.key));
      }
      var params = element("td");
      params.append(element("code", JSON.stringify(job.params)));
      var actions = element("td", null, "controls");
      actions.append(button("retry", "Retry", job), button("remove", "Remove", job));
      row.append(element("td", job.id, "id"), element("td", job.queue), element("td", job.action), params, element("td", job.attempts, "count"), element("td", when(error && error.timestamp)), errorCell, actions);
      return row;
    });
    document.querySelector("#failures tbody").replaceChildren.apply(document.querySelector("#failures tbody"), rows);
    document.getElementById("no-failures").hidden = failures.length > 0;
  }

  function load() {
    if (loading) return loading;
    loading = Promise.all([call("GET", "/tasks/overview"), call("GET", "/tasks/failures", { limit: 50 })])
      .then(function (answers) {
        renderQueues(answers[0].queues);
        renderSchedules(answers[0].schedules);
        renderFailures(answers[1].failures);
        loads += 1;
        body.dataset.loads = String(loads);
        document.getElementById("problem").hidden = true;
        setState("ready", "Updated " + new Date().toLocaleTimeString());
      })
      .catch(showProblem)
      .then(function () { loading = null; });
    return loading;
  }

  function act(control) {
    var verb = control.dataset.verb;
    var jobId = control.dataset.jobId;
    control.disabled = true;
    call("POST", "/tasks/" + verb, { queue: control.dataset.queue, jobId: jobId })
      .then(function () {
        showNotice(verb === "retry" ? "Job " + jobId + " is queued again." : "Job " + jobId + " is removed.");
        return load();
      })
      .catch(function (error) {
        control.disabled = false;
        showProblem(error);
      });
  }

  document.querySelector("#failures tbody").addEventListener("click", function (event) {
    var control = event.target.closest("button[data-verb]");
    if (control) act(control);
  });
  document.getElementById("refresh").addEventListener("click", function () { load(); });

  var form = document.getElementById("credential");
  if (header) {
    form.hidden = credential !== "";
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      credential = document.getElementById("credential-value").value;
      sessionStorage.setItem(storageKey, credential);
      form.hidden = true;
      load();
    });
  }

  setInterval(function () {
    if (document.visibilityState === "visible") load();
  }, REFRESH_MS);
  load();
})();
`;
