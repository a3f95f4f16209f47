#!/usr/bin/env bash
# Builds the image and runs compose.yaml in Docker, what test/topology/compose.test.ts cannot do on
# a machine without a container engine: the services come up healthy, and /readyz, an action on
# each web service and a task job answer through the balancer at http://localhost:8080. Needs
# Docker with the compose plugin and port 8080 free; .ci/run runs it where it finds them.
set -euo pipefail
cd "$(dirname "$0")/.."

# A project of its own: `down -v` must never take the volumes of a compose project someone runs here.
project="herald-compose-check-$$"
base_url="http://localhost:8080"
env_file="$(mktemp)"
compose() { docker compose --project-name "$project" --env-file "$env_file" "$@"; }
cleanup() {
  compose down -v --remove-orphans >/dev/null 2>&1 || true
  rm -f "$env_file"
}
trap cleanup EXIT
# Whether the logs of the services named after the two strings have a line holding both. Read whole
# before they are searched: a grep -q that stops at its match would fail the pipe under pipefail.
logged() {
  local log
  log="$(compose logs --no-color "${@:3}")"
  awk -v first="$1" -v second="$2" 'index($0, first) && index($0, second) { found = 1 } END { exit !found }' <<<"$log"
}
fail() {
  echo "compose check: $*"
  compose ps || true
  compose logs --no-color --tail 80 || true
  exit 1
}

# Throwaway secrets, made as docs/deployment.md#compose makes them, in a file of their own: a
# developer's .env is neither read nor written.
node - "$env_file" <<'EOF'
const { generateKeyPairSync, randomBytes, randomUUID } = require("node:crypto");
const { writeFileSync } = require("node:fs");
const key = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
const secret = () => randomBytes(32).toString("base64");
const lines = [
  `POSTGRES_PASSWORD=${randomBytes(32).toString("hex")}`,
  `SESSION_SECRET=${secret()}`,
  `MCP_REQUEST_STATE_KEY=${secret()}`,
  `TASKS_WATCH_KEY=${secret()}`,
  `OAUTH_COOKIE_SECRETS=${secret()}`,
  `OAUTH_JWKS='${JSON.stringify({ keys: [{ ...key, kid: randomUUID(), alg: "ES256", use: "sig" }] })}'`,
];
writeFileSync(process.argv[2], `${lines.join("\n")}\n`, { mode: 0o600 });
EOF

compose up --build --detach --wait --wait-timeout 300 || fail "the services did not come up healthy"

# Four requests through a round-robin balancer: each web service has some.
BASE_URL="$base_url" node <<'EOF' || fail "the balancer did not answer as expected"
const base = process.env.BASE_URL;
async function expectStatus(path, status) {
  const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) });
  if (response.status !== status) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return response;
}
(async () => {
  await expectStatus("/readyz", 200);
  const list = await (await expectStatus("/api/messages/list", 200)).json();
  if (!list.pagination) throw new Error(`/api/messages/list answered ${JSON.stringify(list)}`);
  for (let i = 0; i < 4; i++) await expectStatus("/api/status", 200);
})().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
EOF
for web in web1 web2; do
  logged '"msg":"action"' '"action":"status"' "$web" || fail "$web served no request through the balancer"
done

# messages:cleanup is open to the task workers and the CLI alone: queued from the worker's container.
enqueued="$(compose exec -T worker node dist/cli-entry.js tasks enqueue messages:cleanup --params '{"age":0}' -q)" \
  || fail "tasks enqueue failed: $enqueued"
job_id="$(node -e 'console.log(JSON.parse(process.argv[1]).response.jobId)' "$enqueued")"
ran=false
for _ in $(seq 1 30); do
  if logged '"msg":"action"' "\"jobId\":\"$job_id\"" web1 web2 worker; then ran=true; break; fi
  sleep 1
done
[ "$ran" = true ] || fail "job $job_id of messages:cleanup did not run within 30 s"

echo "compose check: passed"
