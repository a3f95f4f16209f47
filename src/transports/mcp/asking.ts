import { PROTOCOL_VERSION_META_KEY, ProtocolError, ProtocolErrorCode, type InputRequiredResult, type ServerContext, type ServerOptions } from "@modelcontextprotocol/server";
import type { ConnectionInit } from "../../core/connection";
import type { ActionResult } from "../../core/dispatcher";
import { isInputRequired } from "../../core/input-required";
import { callerInputOf } from "./caller-input";
import { inputRequiredResultOf } from "./input-requests";
import { askedStateCodec, type AskedState, type AskedStateCodec } from "./request-state";

/** A 2026-07-28 request carries its protocol revision in `_meta`; a 2025-era one was initialized instead. */
function isModern(ctx: ServerContext): boolean {
  return (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY] !== undefined;
}

/**
 * How MCP calls ask their caller for input (`connection.ask`): only 2026-07-28 requests can,
 * answered by `input_required` results whose state is signed with one codec for every server the
 * SDK builds. Without a codec (production without MCP_REQUEST_STATE_KEY) no call can ask.
 */
export class McpAsking {
  constructor(private readonly codec: AskedStateCodec | undefined) {}

  /** Over HTTP another process may answer the retry: a key of this process alone will not do in production. */
  static forHttp(key: string | undefined, production: boolean): McpAsking {
    return new McpAsking(key === undefined && production ? undefined : askedStateCodec(key));
  }

  /** Over stdio the one process answers every round, so a key of its own does. */
  static forStdio(key: string | undefined): McpAsking {
    return new McpAsking(askedStateCodec(key));
  }

  /** The SDK checks a retry's state before the handler runs, and refuses one that fails with the frozen -32602. */
  serverOptions(): Pick<ServerOptions, "requestState"> {
    const { codec } = this;
    return codec ? { requestState: { verify: (state, ctx) => codec.verify(state, ctx) } } : {};
  }

  /** What the connection of a call to `action` needs to ask its caller, or why it cannot. */
  connectionInput(ctx: ServerContext, action: string): Pick<ConnectionInit, "callerInput" | "cannotAsk"> {
    if (!isModern(ctx)) return { cannotAsk: "over a 2025-era MCP connection (only 2026-07-28 clients are asked)" };
    if (!this.codec) return { cannotAsk: "over MCP while MCP_REQUEST_STATE_KEY is unset" };
    const state = ctx.mcpReq.requestState<AskedState>();
    // A state another action's questions left proves nothing about this one's.
    if (state !== undefined && state.action !== action) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState", { reason: "invalid_request_state" });
    }
    return { callerInput: callerInputOf(ctx, state?.answers ?? {}) };
  }

  /** The `input_required` result of a call that ended on questions its caller can answer; undefined for any other. */
  inputRequired(result: ActionResult, ctx: ServerContext): Promise<InputRequiredResult> | undefined {
    const { error } = result;
    if (!this.codec || !isInputRequired(error) || !error.askable) return undefined;
    return inputRequiredResultOf(error, result.actionName, this.codec, ctx);
  }
}
