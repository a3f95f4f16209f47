import { join } from "node:path";
import { HOOK_TIMEOUT, useTestServer } from "herald/testing";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import {
  asTask,
  asUncheckedJob,
  overCli,
  overHttp,
  overMcp,
  overWebSocket,
  type Outcome,
} from "../sample-app/support/transports";

/**
 * One validation: the same bad params sent over HTTP (a query string), WebSocket, the CLI (a real
 * `herald` process), tasks (refused at enqueue, and a job queued unchecked failing in the worker)
 * and MCP (the SDK's client) get the same error: type, key, message and issues. Only `value`
 * may differ, since a query string and a command line carry text where JSON carries a number.
 */
const appDir = join(__dirname, "../fixtures/apps/validation");
const { prefix } = useTestRedis("validation-parity");
useTestServer({ appDir, env: { REDIS_URL: TEST_REDIS_URL, TASKS_PREFIX: prefix, LOG_LEVEL: "fatal" } });

const CALLERS = ["http", "websocket", "cli", "task enqueue", "task worker", "mcp"] as const;
type CallerName = (typeof CALLERS)[number];

async function callOver(caller: CallerName, params: Record<string, unknown>): Promise<Outcome> {
  switch (caller) {
    case "http":
      return overHttp("order:place", params, {});
    case "websocket":
      return overWebSocket("order:place", params, {});
    case "cli":
      return overCli("order:place", params, {}, { LOG_LEVEL: "fatal" }, appDir);
    case "task enqueue":
      return asTask("order:place", params);
    case "task worker":
      return asUncheckedJob("order:place", params);
    case "mcp":
      return overMcp("order:place", params, {});
  }
}

/** What every transport must agree on. */
function compared(outcome: Outcome): unknown {
  if (!("error" in outcome)) return outcome;
  const { type, key, message, issues } = outcome.error;
  return { error: { type, key, message, issues } };
}

const rows: [string, Record<string, unknown>, unknown][] = [
  [
    "a missing required param",
    { quantity: 2, size: "small" },
    {
      error: {
        type: "CONNECTION_ACTION_PARAM_REQUIRED",
        key: "item",
        message: 'Missing required param "item"',
        issues: [{ path: ["item"], code: "invalid_type", message: "Invalid input: expected string, received undefined" }],
      },
    },
  ],
  [
    "a value of the wrong type",
    { item: "tea", quantity: "many", size: "small" },
    {
      error: {
        type: "CONNECTION_ACTION_PARAM_VALIDATION",
        key: "quantity",
        message: 'Invalid value for "quantity": Invalid input: expected number, received NaN',
        issues: [{ path: ["quantity"], code: "invalid_type", message: "Invalid input: expected number, received NaN" }],
      },
    },
  ],
  [
    "a number out of range",
    { item: "tea", quantity: 11, size: "small" },
    {
      error: {
        type: "CONNECTION_ACTION_PARAM_VALIDATION",
        key: "quantity",
        message: 'Invalid value for "quantity": Too big: expected number to be <=10',
        issues: [{ path: ["quantity"], code: "too_big", message: "Too big: expected number to be <=10" }],
      },
    },
  ],
  [
    "a value outside an enum",
    { item: "tea", quantity: 2, size: "huge" },
    {
      error: {
        type: "CONNECTION_ACTION_PARAM_VALIDATION",
        key: "size",
        message: 'Invalid value for "size": Invalid option: expected one of "small"|"large"',
        issues: [{ path: ["size"], code: "invalid_value", message: 'Invalid option: expected one of "small"|"large"' }],
      },
    },
  ],
  [
    "several problems at once, every one listed",
    { quantity: 0, size: "huge" },
    {
      error: {
        type: "CONNECTION_ACTION_PARAM_REQUIRED",
        key: "item",
        message: 'Missing required param "item"',
        issues: [
          { path: ["item"], code: "invalid_type", message: "Invalid input: expected string, received undefined" },
          { path: ["quantity"], code: "too_small", message: "Too small: expected number to be >=1" },
          { path: ["size"], code: "invalid_value", message: 'Invalid option: expected one of "small"|"large"' },
        ],
      },
    },
  ],
  // The same schema takes `--quantity 5` and `?quantity=5` as it takes 5 in JSON.
  ["good params", { item: "tea", quantity: 5, size: "large" }, { response: { placed: { item: "tea", quantity: 5, size: "large" } } }],
];

test.each(rows)(
  "%s: the same answer on every transport",
  async (_title, params, expected) => {
    const answers: Partial<Record<CallerName, unknown>> = {};
    for (const caller of CALLERS) answers[caller] = compared(await callOver(caller, params));
    expect(answers).toEqual(Object.fromEntries(CALLERS.map((caller) => [caller, expected])));
  },
  HOOK_TIMEOUT,
);
