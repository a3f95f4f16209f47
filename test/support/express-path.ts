/**
 * The setup of the "express path" test project: the HTTP and sample-app suites run a second
 * time with the fast path off (docs/http.md), so both paths pass the same tests. Its Redis keys
 * live apart, so this run and the other never see each other's sessions, rate limits, channels
 * or jobs when Jest runs them side by side.
 */
process.env.HTTP_FAST_PATH = "false";
process.env.SESSION_REDIS_PREFIX = "herald-express-path:session:";
process.env.RATE_LIMIT_PREFIX = "herald-express-path:rate-limit:";
process.env.CHANNELS_PREFIX = "herald-express-path:channels:";
process.env.TASKS_PREFIX = "herald-express-path:tasks";
