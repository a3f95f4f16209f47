# syntax=docker/dockerfile:1
# The sample app (your app, the same way) as a production image: docs/deployment.md.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The sources before the install: npm ci builds Herald's dist/ (the package's prepare script).
COPY . .
RUN npm ci --no-audit --no-fund
# The app's compile and OpenAPI caches (herald build), so that a boot loads no compiler; then
# only what runs.
RUN node dist/cli-entry.js build \
 && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production PORT=8080
WORKDIR /app
# Owned by root and only read at run time: the process cannot change its own code.
COPY --from=build /app /app
USER node
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A web process; `start --workers-only` for a task worker, `--processes auto` for every core.
CMD ["node", "dist/cli-entry.js", "start"]
