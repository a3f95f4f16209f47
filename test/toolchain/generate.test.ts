import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHerald, getValidTypes, RUN_MODE } from "herald";
import { BUILTIN_INITIALIZER_NAMES } from "../../src/toolchain/generate/builtin-generators";
import { herald } from "../support/cli";
import { copyFixtureApp, listFiles, makeScratchDir, removeScratchDir, runJest, typecheck } from "../support/scratch-apps";

// The fixture app keeps services in lib/services and tests in spec/ (see its herald.config.ts),
// and registers a plugin generator of type "report".
let scratch: string;
let appDir: string;

beforeAll(() => {
  scratch = makeScratchDir();
  appDir = copyFixtureApp("generate", scratch);
});

afterAll(() => removeScratchDir(scratch));

const read = (path: string) => readFileSync(join(appDir, path), "utf8");

/**
 * Every generation the app below gets, one row per type and per option: the last test runs the
 * app's tests once over all of them, so each row proves its option yields code whose tests pass.
 * `writes` is how the CLI reports its files: created, overwritten (--force) or only printed (--dry-run);
 * `report` is its one line for a generator that writes from the app's actions, not a template.
 */
interface GenerationRow {
  args: string[];
  files: Record<string, RegExp[]>;
  writes?: "created" | "overwrote" | "would create";
  report?: RegExp;
}

const generated: GenerationRow[] = [
  {
    args: ["generate", "action", "users:create"],
    files: {
      "actions/users/create.ts": [/export class UsersCreate implements Action/, /name = "users:create"/, /@Web\(\{ route: "\/users\/create", method: HTTP_METHOD\.POST \}\)/],
      "spec/actions/users/create.test.ts": [/runAction\("users:create"/],
    },
  },
  {
    args: ["g", "action", "users:sendEmail", "--method", "PUT", "--route", "/users/:id/email"],
    files: {
      "actions/users/send-email.ts": [
        /export class UsersSendEmail /,
        /route: "\/users\/:id\/email", method: HTTP_METHOD\.PUT/,
        // The route's param is an input, so that it reaches run; the placeholder `who` is gone.
        /inputs = z\.object\(\{\n {4}id: z\.string\(\)\.min\(1\)\.describe\("The route's :id"\),\n {2}\}\);/,
        /Hello \$\{params\.id\}, from users:sendEmail/,
      ],
      "spec/actions/users/send-email.test.ts": [/runAction\("users:sendEmail"/, /run\(\{ id: "42" \}\)/],
    },
  },
  {
    args: ["g", "action", "pages:show", "--method", "GET", "--route", "/pages/:section{/:page}/*rest"],
    files: {
      "actions/pages/show.ts": [
        /section: z\.string\(\)\.min\(1\)\.describe\("The route's :section"\),/,
        /page: z\.string\(\)\.min\(1\)\.optional\(\)\.describe\("The route's :page"\),/,
        /rest: z\.array\(z\.string\(\)\.min\(1\)\)\.min\(1\)\.describe\("The route's \*rest"\),/,
      ],
      "spec/actions/pages/show.test.ts": [/run\(\{ section: "42", rest: \["docs","intro"\] \}\)/, /Hello 42 docs\/intro, from pages:show/],
    },
  },
  {
    args: ["g", "action", "users:count", "--no-web"],
    files: { "actions/users/count.ts": [/@injectable\(\)\nexport class UsersCount/], "spec/actions/users/count.test.ts": [] },
  },
  {
    args: ["g", "task", "reports:send", "--queue", "mail"],
    files: {
      "actions/reports/send.ts": [
        /@Task\(\{ queue: "mail" \}\)\nexport class ReportsSend implements Action/,
        /transports = \[CONNECTION_TYPE\.task, CONNECTION_TYPE\.cli\];/,
      ],
      "spec/actions/reports/send.test.ts": [/runAction\("reports:send"/, /reports:send is unknown to network callers/],
    },
  },
  {
    args: ["g", "task", "reports:purge", "--frequency", "60000"],
    files: {
      "actions/reports/purge.ts": [
        /@Task\(\{ queue: "default", frequency: 60000 \}\)\nexport class ReportsPurge implements Action/,
        /\.default\(/,
        /transports = \[CONNECTION_TYPE\.task, CONNECTION_TYPE\.cli\];/,
      ],
      "spec/actions/reports/purge.test.ts": [/runs without params, as its schedule runs it/, /reports:purge is unknown to network callers/],
    },
  },
  {
    args: ["g", "task", "reports:nightly", "--cron", "0 3 * * *", "--timezone", "Europe/Paris"],
    files: {
      "actions/reports/nightly.ts": [/@Task\(\{ queue: "default", cron: "0 3 \* \* \*", timezone: "Europe\/Paris" \}\)\nexport class ReportsNightly implements Action/, /\.default\(/],
      "spec/actions/reports/nightly.test.ts": [/runs without params, as its schedule runs it/],
    },
  },
  {
    args: ["g", "task", "reports:archive", "--frequency", "60000", "--dry-run"],
    files: {
      "actions/reports/archive.ts": [/@Task\(\{ queue: "default", frequency: 60000 \}\)/],
      "spec/actions/reports/archive.test.ts": [/runAction\("reports:archive"/],
    },
    writes: "would create",
  },
  {
    args: ["g", "initializer", "cache"],
    files: {
      "initializers/cache.ts": [/export class CacheInitializer implements Initializer/, /name = "cache"/],
      "spec/initializers/cache.test.ts": [/toContain\("cache"\)/],
    },
  },
  {
    args: ["g", "middleware", "audit"],
    files: {
      "middleware/audit.ts": [/Runs around the actions that list it \(`middleware: \[AuditMiddleware\]`\)/, /export class AuditMiddleware implements ActionMiddleware \{\n  name = "audit";/],
      "spec/middleware/audit.test.ts": [/from "\.\.\/\.\.\/middleware\/audit"/],
    },
  },
  { args: ["g", "middleware", "timing", "--no-test"], files: { "middleware/timing.ts": [/export class TimingMiddleware/] } },
  {
    args: ["g", "middleware", "request-log", "--global"],
    files: {
      "middleware/request-log.ts": [/Runs around every action of the app/, /export class RequestLogMiddleware implements ActionMiddleware \{\n  static readonly global = true;\n  static readonly priority = 1000;\n/],
      "spec/middleware/request-log.test.ts": [/expect\(RequestLogMiddleware\.global\)\.toBe\(true\)/],
    },
  },
  {
    args: ["g", "channel", "chat/rooms"],
    files: {
      "channels/chat/rooms.ts": [/export class RoomsChannel extends Channel/, /name = "chat:rooms"/],
      "spec/channels/chat/rooms.test.ts": [/from "\.\.\/\.\.\/\.\.\/channels\/chat\/rooms"/],
    },
  },
  {
    args: ["g", "service", "billing/invoice"],
    files: {
      "lib/services/billing/invoice.ts": [/@Service\(\)\nexport class InvoiceService/],
      "spec/lib/services/billing/invoice.test.ts": [/from "\.\.\/\.\.\/\.\.\/\.\.\/lib\/services\/billing\/invoice"/],
    },
  },
  {
    args: ["g", "service", "billing/invoice", "--force"],
    files: { "lib/services/billing/invoice.ts": [/@Service\(\)/], "spec/lib/services/billing/invoice.test.ts": [] },
    writes: "overwrote",
  },
  { args: ["g", "test", "smoke"], files: { "spec/smoke.test.ts": [/useTestServer\(\{ appDir: join\(__dirname, "\.\."\) \}\)/] } },
  {
    args: ["g", "report", "monthly-sales", "--title", "Monthly sales"],
    files: { "reports/monthly-sales.ts": [/export function monthlySalesReport/], "spec/reports/monthly-sales.test.ts": [] },
  },
  {
    args: ["g", "client-types", "--out", "web/app-actions.d.ts"],
    files: { "web/app-actions.d.ts": [/^export interface AppActions \{$/m, /^ {2}"users:create": \{$/m] },
    report: /^wrote web\/app-actions\.d\.ts: the types of \d+ action\(s\) for herald\/client\n$/,
  },
];

/** The flags of a command, as its --help lists them, without yargs' own. */
async function flagsOf(command: string[]): Promise<string[]> {
  const help = await herald([...command, "--help"], { cwd: appDir });
  const flags = [...help.stdout.matchAll(/^\s+(?:-\w, )?--(?:\[no-\])?([a-z][a-z-]*)/gm)].map((match) => match[1]!);
  return [...new Set(flags)].filter((flag) => !["help", "version", "quiet", "verbose"].includes(flag)).sort();
}

const flagged = (args: string[], flag: string) => args.includes(`--${flag}`) || args.includes(`--no-${flag}`);

/**
 * What this fixture app, which has no database, cannot prove: the resource type and its flag,
 * proven on an app made by `herald new` in generate-resource.test.ts.
 */
const PROVEN_ELSEWHERE = { types: ["resource"], flags: ["plural"] };

describe("herald generate <type> <name>", () => {
  test("the table has a row for every type and every flag, so each is proven below", async () => {
    const flags = await flagsOf(["generate"]);
    expect(flags).toEqual(expect.arrayContaining(["dry-run", "force", "frequency", "test"]));
    const unproven = (flag: string) => !generated.some((row) => flagged(row.args, flag)) && !PROVEN_ELSEWHERE.flags.includes(flag);
    expect(flags.filter(unproven)).toEqual([]);
    const untyped = (type: string) => !generated.some((row) => row.args[1] === type) && !PROVEN_ELSEWHERE.types.includes(type);
    expect(getValidTypes(appDir).filter(untyped)).toEqual([]);
  });

  test.each(generated)("$args writes its files in the app's folders", async ({ args, files, writes = "created", report }) => {
    const before = listFiles(appDir);
    const run = await herald(args, { cwd: appDir });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    if (writes === "would create") {
      for (const [path, patterns] of Object.entries(files)) {
        expect(run.stdout).toContain(`--- would create ${path}\n`);
        for (const pattern of patterns) expect(run.stdout).toMatch(pattern);
      }
      expect(listFiles(appDir)).toEqual(before);
      return;
    }
    if (report) expect(run.stdout).toMatch(report);
    else expect(run.stdout).toBe(Object.keys(files).map((path) => `${writes} ${path}\n`).join(""));
    expect(listFiles(appDir)).toEqual([...new Set([...before, ...Object.keys(files)])].sort());
    for (const [path, patterns] of Object.entries(files)) {
      for (const pattern of patterns) expect(read(path)).toMatch(pattern);
    }
  });

  test("an existing file is never touched without --force, and overwritten with it", async () => {
    expect((await herald(["g", "service", "mailer"], { cwd: appDir })).code).toBe(0);
    writeFileSync(join(appDir, "lib/services/mailer.ts"), "// edited by hand\nexport class MailerService {}\n");

    const refused = await herald(["g", "service", "mailer"], { cwd: appDir });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ type: "CONNECTION_CONFLICT" });
    expect(JSON.parse(refused.stdout).error.message).toContain("lib/services/mailer.ts, spec/lib/services/mailer.test.ts already exist; use --force");
    expect(refused.stderr).toBe("");
    expect(read("lib/services/mailer.ts")).toBe("// edited by hand\nexport class MailerService {}\n");

    const dryRun = await herald(["g", "service", "mailer", "--force", "--dry-run"], { cwd: appDir });
    expect(dryRun.stdout).toContain("--- would overwrite lib/services/mailer.ts");
    expect(read("lib/services/mailer.ts")).toContain("edited by hand");

    const forced = await herald(["g", "service", "mailer", "--force"], { cwd: appDir });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("overwrote lib/services/mailer.ts");
    expect(read("lib/services/mailer.ts")).toContain("@Service()\nexport class MailerService {");
    // Four CLI runs, each loading the app: on a busy machine more than the default 30 s.
  }, 120_000);

  test.each([
    ["action", "../x", 'must not contain ".."'],
    ["service", "../../outside", 'must not contain ".."'],
    ["service", "billing/../../outside", 'must not contain ".."'],
    ["action", "users:..", 'must not contain ".."'],
    ["service", "/etc/passwd", 'start with "/"'],
    ["service", "a\\b", '"\\"'],
    ["action", "users", "<group>:<verb>"],
    ["action", "users:send email", '"send email" is not a valid part'],
    ["action", "1users:create", '"1users" is not a valid part'],
    ["service", "my service", "is not a valid part"],
    ["service", "delete", '"delete" is a reserved word in JavaScript'],
    ["middleware", "class", '"class" is a reserved word in JavaScript'],
    ["initializer", "web", '"web" is the name of a part of the framework'],
    ["initializer", "task_workers", '"task-workers" is the name of a part of the framework'],
  ])("refuses the %s name %j with a clear message and writes nothing", async (type, name, reason) => {
    const before = listFiles(appDir);
    const run = await herald(["g", type, name], { cwd: appDir });
    expect(run.code).toBe(1);
    const { error } = JSON.parse(run.stdout);
    expect(error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "name", value: name });
    expect(error.message).toContain(`Refusing the name "${name}"`);
    expect(error.message).toContain(reason);
    expect(error.message).toContain("Nothing was written.");
    expect(run.stderr).toBe("");
    expect(listFiles(appDir)).toEqual(before);
  });

  test.each([
    [["--cron", "61 * * * *"], "Invalid --cron 61 * * * *: CronPattern: Invalid value for minute: 61"],
    [["--cron", "0 3 * * *", "--timezone", "Mars/Olympus"], "Invalid --cron/--timezone 0 3 * * * in Mars/Olympus:"],
    [["--cron", "0 3 * * *", "--frequency", "1000"], "give --frequency or --cron, not both"],
    [["--timezone", "UTC"], "a time zone reads a --cron expression; give one"],
  ])("refuses a task schedule %j that its boot would refuse, and writes nothing", async (flags, message) => {
    const before = listFiles(appDir);
    const run = await herald(["g", "task", "reports:scheduled", ...flags], { cwd: appDir });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", message: expect.stringContaining(message) });
    expect(listFiles(appDir)).toEqual(before);
  });

  test("refuses an unknown type, listing the valid ones", async () => {
    const run = await herald(["g", "widget", "x"], { cwd: appDir });
    expect(run.code).toBe(1);
    const { message } = JSON.parse(run.stdout).error;
    expect(message).toContain('Given: "widget"');
    expect(message).toContain('"action", "initializer", "middleware", "channel", "service", "task", "test", "resource", "report"');
    expect(run.stderr).toBe("");
  });

  test("generate --help lists every type, the plugin's too, with its flags", async () => {
    const run = await herald(["generate", "--help"], { cwd: appDir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/report\s+A report: a function that renders a title/);
    expect(run.stdout).toMatch(/--title\s+report: its title/);
    expect(run.stdout).toMatch(/--no-test|--test/);
  });

  test("getValidTypes lists the built-in types and the app's plugin types", () => {
    expect(getValidTypes(appDir)).toEqual(["action", "initializer", "middleware", "channel", "service", "task", "test", "resource", "report"]);
    expect(getValidTypes(join(__dirname, "../fixtures/apps/cli"))).not.toContain("report");
  });

  test("the generated code type-checks", async () => {
    const run = await typecheck(appDir);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.code).toBe(0);
  }, 240_000);

  test("the generated tests pass", async () => {
    const { run, report } = await runJest([appDir]);
    if (!report?.success) throw new Error(`nested jest failed:\n${run.stderr}\n${report?.testResults.map((r) => r.message).join("\n") ?? run.stdout}`);
    const suites = report.testResults.map((result) => result.name.slice(appDir.length + 1)).sort();
    expect(suites).toEqual([
      "spec/actions/pages/show.test.ts",
      "spec/actions/reports/nightly.test.ts",
      "spec/actions/reports/purge.test.ts",
      "spec/actions/reports/send.test.ts",
      "spec/actions/users/count.test.ts",
      "spec/actions/users/create.test.ts",
      "spec/actions/users/send-email.test.ts",
      "spec/channels/chat/rooms.test.ts",
      "spec/initializers/cache.test.ts",
      "spec/lib/services/billing/invoice.test.ts",
      "spec/lib/services/mailer.test.ts",
      "spec/middleware/audit.test.ts",
      "spec/middleware/request-log.test.ts",
      "spec/reports/monthly-sales.test.ts",
      "spec/smoke.test.ts",
    ]);
    expect(report.numFailedTests).toBe(0);
  }, 240_000);
});

test("the initializer names the generator reserves are those of the framework's initializers", async () => {
  const names = new Set<string>();
  // The sample app turns on every built-in a config can turn on (the database, OAuth).
  for (const appDir of [join(__dirname, "../fixtures/apps/cli"), join(__dirname, "../../sample-app")]) {
    for (const runMode of Object.values(RUN_MODE)) {
      const server = await createHerald({ appDir, runMode, logLevel: "silent", env: { PGLITE_DATA_DIR: "memory://" } }).load();
      for (const initializer of server.initializers) names.add(initializer.name);
    }
  }
  expect([...names].sort()).toEqual([...BUILTIN_INITIALIZER_NAMES].sort());
});
