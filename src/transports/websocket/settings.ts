import { z } from "zod";
import { HeraldConfig, readSettings } from "../../core/config";
import { zByteSize as byteSize, zOriginList as originList } from "../../core/setting-schemas";

const count = (min: number) => z.coerce.number().int().min(min);

const websocketEnvironment = z.object({
  WS_PATH: z.string().regex(/^(\/[A-Za-z0-9._~-]+)+$/, "must be a path such as /ws, without a trailing slash").default("/ws"),
  /** Origins (besides the server's own) whose pages may open a socket; the CORS list when unset. */
  WS_ALLOWED_ORIGINS: originList.optional(),
  HTTP_CORS_ORIGINS: originList.optional(),
  WS_MAX_MESSAGE_SIZE: byteSize.default(64 * 1024),
  WS_MAX_MESSAGES_PER_SECOND: count(1).default(100),
  WS_MAX_SUBSCRIPTIONS: count(0).default(100),
  WS_PING_INTERVAL: count(0).default(30_000),
  WS_MAX_BUFFERED: byteSize.default(4 * 1024 ** 2),
  WS_SHUTDOWN_TIMEOUT: count(0).default(10_000),
  WS_FLOOD_BACKOFF: count(0).default(60_000),
});

export interface WebSocketSettings {
  path: string;
  /** Origins allowed besides the same origin; `*` admits any page, without its session. */
  allowedOrigins: string[];
  /** Largest client message answered; a larger one gets CONNECTION_PAYLOAD_TOO_LARGE. */
  maxMessageSize: number;
  /** Frames over this close the socket with 1009, since ws must hold a whole frame in memory. */
  maxFrameSize: number;
  /** Messages a second from one address, all its sockets together; bursts of as many. */
  maxMessagesPerSecond: number;
  maxSubscriptions: number;
  /** 0 disables pings. */
  pingInterval: number;
  /** Bytes queued for a client that does not read, past which its socket is closed with 1008. */
  maxBuffered: number;
  shutdownTimeout: number;
  /** Milliseconds an address whose socket was closed for flooding may not open another; 0 disables it. */
  floodBackoff: number;
}

/** The WebSocket transport's settings, from `WS_*` environment variables. */
export function readWebSocketSettings(config: Pick<HeraldConfig, "raw">): WebSocketSettings {
  const values = readSettings(websocketEnvironment, config);
  return {
    path: values.WS_PATH,
    allowedOrigins: values.WS_ALLOWED_ORIGINS ?? values.HTTP_CORS_ORIGINS ?? [],
    maxMessageSize: values.WS_MAX_MESSAGE_SIZE,
    maxFrameSize: values.WS_MAX_MESSAGE_SIZE * 4,
    maxMessagesPerSecond: values.WS_MAX_MESSAGES_PER_SECOND,
    maxSubscriptions: values.WS_MAX_SUBSCRIPTIONS,
    pingInterval: values.WS_PING_INTERVAL,
    maxBuffered: values.WS_MAX_BUFFERED,
    shutdownTimeout: values.WS_SHUTDOWN_TIMEOUT,
    floodBackoff: values.WS_FLOOD_BACKOFF,
  };
}
