/**
 * The actions of this app as herald/client sees them: `createClient<AppActions>({ url })`.
 * Written by `herald generate client-types` (and `herald build`) from the actions' inputs,
 * outputs and declared errors: do not edit it, write it again.
 */

export interface components {
    schemas: {
        "channel.messages": {
            body: string;
            id: number;
            /** @description The author's name; null when no user matches */
            user_name: string | null;
        };
        /** @description The id no user has */
        "error.CONNECTION_NOT_FOUND": number;
        "error.CONNECTION_RATE_LIMITED": {
            limit: number;
            /** @description Whole seconds to wait before retrying, as the Retry-After header says. */
            retryAfter: number;
        } | {
            limit: number;
            /** @description Whole seconds until the budget is whole again, as the Retry-After header says. */
            retryAfter: number;
            windowMs: number;
        };
        "error.CONNECTION_RATE_LIMITED.2": {
            limit: number;
            /** @description Whole seconds to wait before retrying, as the Retry-After header says. */
            retryAfter: number;
        };
        "error.CONNECTION_SERVICE_BUSY": {
            /** @description Whole seconds to wait before retrying, as the Retry-After header says. */
            retryAfter: number;
        };
        "exports:start.outputs": {
            handle: string;
            jobId: string;
            queue: string;
        };
        "message:create.outputs": {
            message: {
                body: string;
                /** Format: date-time */
                created_at: string;
                id: number;
                /** Format: date-time */
                updated_at: string;
                user_id: number | null;
            };
        };
        "message:create.params": {
            /** @description The message, 1 to 2000 characters */
            body: string;
        };
        "messages:export.outputs": {
            count: number;
            csv: string;
        };
        "messages:list.outputs": {
            messages: {
                body: string;
                id: number;
                /** @description The author's name; null when no user matches */
                user_name: string | null;
            }[];
            pagination: {
                /** @description The most rows a page holds */
                limit: number;
                /** @description This page's number, starting at 1 */
                page: number;
                /** @description How many pages there are */
                pages: number;
                /** @description Rows on every page together */
                total: number;
            };
        };
        "messages:list.params": {
            /**
             * @description Items per page (at most 50)
             * @default 10
             */
            limit?: number;
            /**
             * @description Page number, starting at 1
             * @default 1
             */
            page?: number;
        };
        "session:create.outputs": {
            user: {
                /** Format: date-time */
                created_at: string;
                email: string;
                id: number;
                name: string;
                /** Format: date-time */
                updated_at: string;
            };
        };
        "session:create.params": {
            /**
             * Format: email
             * @description The account's e-mail address
             */
            email: string;
            /**
             * Format: password
             * @description The account's password
             */
            password: string;
        };
        "session:destroy.outputs": {
            /** @constant */
            signedOut: true;
        };
        "session:view.outputs": {
            user: {
                /** Format: date-time */
                created_at: string;
                email: string;
                id: number;
                name: string;
                /** Format: date-time */
                updated_at: string;
            };
        };
        "session:view.params": Record<string, never>;
        "status.outputs": {
            /** @description The services that are down, essential or optional */
            down: string[];
            /** @description False when a service the app cannot serve without is down */
            healthy: boolean;
            name: string;
            services: {
                [key: string]: {
                    /**
                     * @description The service answers but has no capacity to spare right now
                     * @constant
                     */
                    busy?: true;
                    /** @description Why the probe failed; never in production */
                    error?: string;
                    healthy: boolean;
                    latencyMs: number;
                    /**
                     * @description The app serves without this service: down, it makes the server degraded, not down
                     * @constant
                     */
                    optional?: true;
                };
            };
            /**
             * @description degraded: an optional service is down; down: an essential one is
             * @enum {string}
             */
            status: "ok" | "degraded" | "down";
            /** @description Seconds since this server booted */
            uptime: number;
            version: string;
        };
        "tasks:watch.outputs": {
            attempts: number;
            progress?: {
                message?: string;
                progress: number;
                total?: number;
            };
            /** @enum {string} */
            status: "waiting" | "delayed" | "active";
            /** @constant */
            type: "status";
        } | {
            message?: string;
            progress: number;
            total?: number;
            /** @constant */
            type: "progress";
        } | {
            attempt: number;
            error: {
                message: string;
                timestamp: string;
                type: string;
            } & {
                [key: string]: unknown;
            };
            /** @constant */
            type: "retrying";
        } | {
            result: unknown;
            /** @constant */
            type: "completed";
        } | {
            error: {
                message: string;
                timestamp: string;
                type: string;
            } & {
                [key: string]: unknown;
            };
            /** @constant */
            type: "failed";
        } | {
            complete: boolean;
            failed: number;
            pending: number;
            succeeded: number;
            total: number;
            /** @constant */
            type: "fanOut";
        };
        "tasks:watch.params": {
            /**
             * Format: password
             * @description A watch handle, from TaskService.watchHandle or enqueueWatched
             */
            handle: string;
        };
        "user:create.outputs": {
            user: {
                /** Format: date-time */
                created_at: string;
                email: string;
                id: number;
                name: string;
                /** Format: date-time */
                updated_at: string;
            };
        };
        "user:create.params": {
            /**
             * Format: email
             * @description E-mail address, unique among users
             */
            email: string;
            /** @description Display name, 3 to 100 characters */
            name: string;
            /**
             * Format: password
             * @description Password, at least 8 characters
             */
            password: string;
        };
        "user:edit.outputs": {
            user: {
                /** Format: date-time */
                created_at: string;
                email: string;
                id: number;
                name: string;
                /** Format: date-time */
                updated_at: string;
            };
        };
        "user:edit.params": {
            /**
             * Format: password
             * @description Your password as it is now: required to change it
             */
            currentPassword?: string;
            /**
             * Format: email
             * @description E-mail address, unique among users
             */
            email?: string;
            /** @description Display name, 3 to 100 characters */
            name?: string;
            /**
             * Format: password
             * @description Password, at least 8 characters
             */
            password?: string;
        };
        "user:view.outputs": {
            /** @description The user; the e-mail address only on your own */
            user: {
                /** Format: date-time */
                created_at: string;
                email: string;
                id: number;
                name: string;
                /** Format: date-time */
                updated_at: string;
            } | {
                /** Format: date-time */
                created_at: string;
                id: number;
                name: string;
                /** Format: date-time */
                updated_at: string;
            };
        };
        "user:view.params": {
            /** @description The user's id */
            user: number | string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}

export interface AppActions {
  /** Queues an export of every message as CSV, and answers the handle to watch it with (tasks:watch) */
  "exports:start": {
    params: Record<string, never>;
    outputs: components["schemas"]["exports:start.outputs"];
    errors: ErrorSet1;
    transports: "web" | "websocket";
    http: { method: "POST"; route: "/exports" };
  };
  /** Post a message as the signed-in user; it is published on the messages channel */
  "message:create": {
    params: components["schemas"]["message:create.params"];
    outputs: components["schemas"]["message:create.outputs"];
    errors: ErrorSet2;
    transports: "web" | "websocket";
    http: { method: "PUT"; route: "/message" };
  };
  /** Every message as CSV (id, author, body, created_at), oldest first */
  "messages:export": {
    params: Record<string, never>;
    outputs: components["schemas"]["messages:export.outputs"];
    errors: ErrorSet1;
    transports: "web" | "websocket";
    http: { method: "GET"; route: "/messages/export" };
  };
  /** Messages, newest first, one page at a time */
  "messages:list": {
    params: components["schemas"]["messages:list.params"];
    outputs: components["schemas"]["messages:list.outputs"];
    errors: ErrorSet3;
    transports: "web" | "websocket";
    http: { method: "GET"; route: "/messages/list" };
  };
  /** Sign in with an e-mail address and a password */
  "session:create": {
    params: components["schemas"]["session:create.params"];
    outputs: components["schemas"]["session:create.outputs"];
    errors: ErrorSet4;
    transports: "web" | "websocket";
    http: { method: "PUT"; route: "/session" };
  };
  /** Sign out; signing out when not signed in is not an error */
  "session:destroy": {
    params: Record<string, never>;
    outputs: components["schemas"]["session:destroy.outputs"];
    errors: ErrorSet5;
    transports: "web" | "websocket";
    http: { method: "DELETE"; route: "/session" };
  };
  /** The signed-in user */
  "session:view": {
    params: components["schemas"]["session:view.params"];
    outputs: components["schemas"]["session:view.outputs"];
    errors: ErrorSet6;
    transports: "web" | "websocket";
    http: { method: "GET"; route: "/session" };
  };
  /** The server's name, version, uptime and the health of its backing services */
  "status": {
    params: Record<string, never>;
    outputs: components["schemas"]["status.outputs"];
    errors: ErrorSet5;
    transports: "web" | "websocket";
    http: { method: "GET"; route: "/status" };
  };
  /** The progress and outcome of a queued job, as they happen, for the caller that queued it */
  "tasks:watch": {
    params: components["schemas"]["tasks:watch.params"];
    outputs: components["schemas"]["tasks:watch.outputs"];
    errors: ErrorSet7;
    transports: "web" | "websocket";
    http: { method: "GET"; route: "/jobs/{handle}/events" };
    streaming: true;
  };
  /** Sign up: create a user with a name, an e-mail address and a password */
  "user:create": {
    params: components["schemas"]["user:create.params"];
    outputs: components["schemas"]["user:create.outputs"];
    errors: ErrorSet8;
    transports: "web" | "websocket";
    http: { method: "PUT"; route: "/user" };
  };
  /** Change your own name, e-mail address or password */
  "user:edit": {
    params: components["schemas"]["user:edit.params"];
    outputs: components["schemas"]["user:edit.outputs"];
    errors: ErrorSet9;
    transports: "web" | "websocket";
    http: { method: "POST"; route: "/user" };
  };
  /** A user's profile, by id; the e-mail address only on your own */
  "user:view": {
    params: components["schemas"]["user:view.params"];
    outputs: components["schemas"]["user:view.outputs"];
    errors: ErrorSet10;
    transports: "web" | "websocket";
    http: { method: "GET"; route: "/user/{user}" };
  };
}

export interface AppChannels {
  /** New messages as they are posted */
  "messages": { message: components["schemas"]["channel.messages"]; presence: false };
}

export type ErrorSet1 =
  | { type: "CONNECTION_ACTION_OUTPUT_VALIDATION"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_FORMATTING"; status: 400; value?: unknown }
  | { type: "CONNECTION_ACTION_RUN"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_TIMEOUT"; status: 504; value?: unknown }
  | { type: "CONNECTION_PAYLOAD_TOO_LARGE"; status: 413; value?: unknown }
  | { type: "CONNECTION_RATE_LIMITED"; status: 429; value: components["schemas"]["error.CONNECTION_RATE_LIMITED"] }
  | { type: "CONNECTION_SERVER_ERROR"; status: 500; value?: unknown }
  | { type: "CONNECTION_SERVICE_BUSY"; status: 503; value: components["schemas"]["error.CONNECTION_SERVICE_BUSY"] }
  | { type: "CONNECTION_SERVICE_UNAVAILABLE"; status: 503; value?: unknown };

export type ErrorSet2 =
  | { type: "CONNECTION_ACTION_OUTPUT_VALIDATION"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_FORMATTING"; status: 400; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_REQUIRED"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_VALIDATION"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_RUN"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_TIMEOUT"; status: 504; value?: unknown }
  | { type: "CONNECTION_NOT_AUTHENTICATED"; status: 401; value?: unknown }
  | { type: "CONNECTION_PAYLOAD_TOO_LARGE"; status: 413; value?: unknown }
  | { type: "CONNECTION_RATE_LIMITED"; status: 429; value: components["schemas"]["error.CONNECTION_RATE_LIMITED.2"] }
  | { type: "CONNECTION_SERVER_ERROR"; status: 500; value?: unknown }
  | { type: "CONNECTION_SERVICE_BUSY"; status: 503; value: components["schemas"]["error.CONNECTION_SERVICE_BUSY"] }
  | { type: "CONNECTION_SERVICE_UNAVAILABLE"; status: 503; value?: unknown }
  | { type: "CONNECTION_UNSUPPORTED_MEDIA_TYPE"; status: 415; value?: unknown };

export type ErrorSet3 =
  | { type: "CONNECTION_ACTION_OUTPUT_VALIDATION"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_FORMATTING"; status: 400; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_REQUIRED"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_VALIDATION"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_RUN"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_TIMEOUT"; status: 504; value?: unknown }
  | { type: "CONNECTION_PAYLOAD_TOO_LARGE"; status: 413; value?: unknown }
  | { type: "CONNECTION_RATE_LIMITED"; status: 429; value: components["schemas"]["error.CONNECTION_RATE_LIMITED.2"] }
  | { type: "CONNECTION_SERVER_ERROR"; status: 500; value?: unknown }
  | { type: "CONNECTION_SERVICE_BUSY"; status: 503; value: components["schemas"]["error.CONNECTION_SERVICE_BUSY"] }
  | { type: "CONNECTION_SERVICE_UNAVAILABLE"; status: 503; value?: unknown };

export type ErrorSet4 =
  | { type: "CONNECTION_ACTION_OUTPUT_VALIDATION"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_FORMATTING"; status: 400; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_REQUIRED"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_VALIDATION"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_RUN"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_TIMEOUT"; status: 504; value?: unknown }
  | { type: "CONNECTION_NOT_AUTHENTICATED"; status: 401; value?: unknown }
  | { type: "CONNECTION_PAYLOAD_TOO_LARGE"; status: 413; value?: unknown }
  | { type: "CONNECTION_RATE_LIMITED"; status: 429; value: components["schemas"]["error.CONNECTION_RATE_LIMITED"] }
  | { type: "CONNECTION_SERVER_ERROR"; status: 500; value?: unknown }
  | { type: "CONNECTION_SERVICE_BUSY"; status: 503; value: components["schemas"]["error.CONNECTION_SERVICE_BUSY"] }
  | { type: "CONNECTION_SERVICE_UNAVAILABLE"; status: 503; value?: unknown }
  | { type: "CONNECTION_SESSION_NOT_FOUND"; status: 401; value?: unknown }
  | { type: "CONNECTION_UNSUPPORTED_MEDIA_TYPE"; status: 415; value?: unknown };

export type ErrorSet5 =
  | { type: "CONNECTION_ACTION_OUTPUT_VALIDATION"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_FORMATTING"; status: 400; value?: unknown }
  | { type: "CONNECTION_ACTION_RUN"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_TIMEOUT"; status: 504; value?: unknown }
  | { type: "CONNECTION_PAYLOAD_TOO_LARGE"; status: 413; value?: unknown }
  | { type: "CONNECTION_RATE_LIMITED"; status: 429; value: components["schemas"]["error.CONNECTION_RATE_LIMITED.2"] }
  | { type: "CONNECTION_SERVER_ERROR"; status: 500; value?: unknown }
  | { type: "CONNECTION_SERVICE_BUSY"; status: 503; value: components["schemas"]["error.CONNECTION_SERVICE_BUSY"] }
  | { type: "CONNECTION_SERVICE_UNAVAILABLE"; status: 503; value?: unknown };

export type ErrorSet6 =
  | { type: "CONNECTION_ACTION_OUTPUT_VALIDATION"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_FORMATTING"; status: 400; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_REQUIRED"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_VALIDATION"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_RUN"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_TIMEOUT"; status: 504; value?: unknown }
  | { type: "CONNECTION_NOT_AUTHENTICATED"; status: 401; value?: unknown }
  | { type: "CONNECTION_PAYLOAD_TOO_LARGE"; status: 413; value?: unknown }
  | { type: "CONNECTION_RATE_LIMITED"; status: 429; value: components["schemas"]["error.CONNECTION_RATE_LIMITED.2"] }
  | { type: "CONNECTION_SERVER_ERROR"; status: 500; value?: unknown }
  | { type: "CONNECTION_SERVICE_BUSY"; status: 503; value: components["schemas"]["error.CONNECTION_SERVICE_BUSY"] }
  | { type: "CONNECTION_SERVICE_UNAVAILABLE"; status: 503; value?: unknown };

export type ErrorSet7 =
  | { type: "CONNECTION_ACTION_OUTPUT_VALIDATION"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_FORMATTING"; status: 400; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_REQUIRED"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_VALIDATION"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_RUN"; status: 500; value?: unknown }
  | { type: "CONNECTION_FORBIDDEN"; status: 403; value?: unknown }
  | { type: "CONNECTION_NOT_FOUND"; status: 404; value?: unknown }
  | { type: "CONNECTION_PAYLOAD_TOO_LARGE"; status: 413; value?: unknown }
  | { type: "CONNECTION_RATE_LIMITED"; status: 429; value: components["schemas"]["error.CONNECTION_RATE_LIMITED.2"] }
  | { type: "CONNECTION_SERVER_ERROR"; status: 500; value?: unknown }
  | { type: "CONNECTION_SERVICE_BUSY"; status: 503; value: components["schemas"]["error.CONNECTION_SERVICE_BUSY"] }
  | { type: "CONNECTION_SERVICE_UNAVAILABLE"; status: 503; value?: unknown };

export type ErrorSet8 =
  | { type: "CONNECTION_ACTION_OUTPUT_VALIDATION"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_FORMATTING"; status: 400; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_REQUIRED"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_VALIDATION"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_RUN"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_TIMEOUT"; status: 504; value?: unknown }
  | { type: "CONNECTION_CONFLICT"; status: 409; value?: unknown }
  | { type: "CONNECTION_PAYLOAD_TOO_LARGE"; status: 413; value?: unknown }
  | { type: "CONNECTION_RATE_LIMITED"; status: 429; value: components["schemas"]["error.CONNECTION_RATE_LIMITED"] }
  | { type: "CONNECTION_SERVER_ERROR"; status: 500; value?: unknown }
  | { type: "CONNECTION_SERVICE_BUSY"; status: 503; value: components["schemas"]["error.CONNECTION_SERVICE_BUSY"] }
  | { type: "CONNECTION_SERVICE_UNAVAILABLE"; status: 503; value?: unknown }
  | { type: "CONNECTION_UNSUPPORTED_MEDIA_TYPE"; status: 415; value?: unknown };

export type ErrorSet9 =
  | { type: "CONNECTION_ACTION_OUTPUT_VALIDATION"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_FORMATTING"; status: 400; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_REQUIRED"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_VALIDATION"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_RUN"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_TIMEOUT"; status: 504; value?: unknown }
  | { type: "CONNECTION_CONFLICT"; status: 409; value?: unknown }
  | { type: "CONNECTION_NOT_AUTHENTICATED"; status: 401; value?: unknown }
  | { type: "CONNECTION_PAYLOAD_TOO_LARGE"; status: 413; value?: unknown }
  | { type: "CONNECTION_RATE_LIMITED"; status: 429; value: components["schemas"]["error.CONNECTION_RATE_LIMITED"] }
  | { type: "CONNECTION_SERVER_ERROR"; status: 500; value?: unknown }
  | { type: "CONNECTION_SERVICE_BUSY"; status: 503; value: components["schemas"]["error.CONNECTION_SERVICE_BUSY"] }
  | { type: "CONNECTION_SERVICE_UNAVAILABLE"; status: 503; value?: unknown }
  | { type: "CONNECTION_UNSUPPORTED_MEDIA_TYPE"; status: 415; value?: unknown };

export type ErrorSet10 =
  | { type: "CONNECTION_ACTION_OUTPUT_VALIDATION"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_FORMATTING"; status: 400; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_REQUIRED"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_PARAM_VALIDATION"; status: 422; value?: unknown }
  | { type: "CONNECTION_ACTION_RUN"; status: 500; value?: unknown }
  | { type: "CONNECTION_ACTION_TIMEOUT"; status: 504; value?: unknown }
  | { type: "CONNECTION_NOT_AUTHENTICATED"; status: 401; value?: unknown }
  | { type: "CONNECTION_NOT_FOUND"; status: 404; value: components["schemas"]["error.CONNECTION_NOT_FOUND"] }
  | { type: "CONNECTION_PAYLOAD_TOO_LARGE"; status: 413; value?: unknown }
  | { type: "CONNECTION_RATE_LIMITED"; status: 429; value: components["schemas"]["error.CONNECTION_RATE_LIMITED.2"] }
  | { type: "CONNECTION_SERVER_ERROR"; status: 500; value?: unknown }
  | { type: "CONNECTION_SERVICE_BUSY"; status: 503; value: components["schemas"]["error.CONNECTION_SERVICE_BUSY"] }
  | { type: "CONNECTION_SERVICE_UNAVAILABLE"; status: 503; value?: unknown };
