export enum HTTP_METHOD {
  GET = "GET",
  POST = "POST",
  PUT = "PUT",
  DELETE = "DELETE",
  PATCH = "PATCH",
  OPTIONS = "OPTIONS",
}

export const CHANNEL_NAME_PATTERN = /^[a-zA-Z0-9:._-]{1,200}$/;

export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

export enum MCP_RESPONSE_FORMAT {
  JSON = "JSON",
  MARKDOWN = "MARKDOWN",
}

export enum LogFormat {
  text = "text",
  json = "json",
}

export enum LogLevel {
  trace = "trace",
  debug = "debug",
  info = "info",
  warn = "warn",
  error = "error",
  fatal = "fatal",
}

export enum ExitCode {
  success = 0,
  error = 1,
}

export enum CONNECTION_TYPE {
  web = "web",
  websocket = "websocket",
  cli = "cli",
  task = "task",
  mcp = "mcp",
}

/** The process roles a server can boot in; initializers list the ones they apply to. */
export enum RUN_MODE {
  server = "server",
  cli = "cli",
  workers = "workers",
  mcp = "mcp",
}
