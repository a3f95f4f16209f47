import { randomBytes } from "node:crypto";
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from "@modelcontextprotocol/server";
import type { RawAnswer } from "../../core/questions";
import { requestCaller } from "./request-caller";

/**
 * What a question round leaves with the client, signed: the action that asked, and the answers it
 * read before the questions still open, so that the retry need not bring them again.
 */
export interface AskedState {
  action: string;
  answers: Record<string, RawAnswer>;
}

export type AskedStateCodec = RequestStateCodec<AskedState>;

/**
 * The SDK's HMAC codec of the state, bound to the method and to the caller the token names, so a
 * state minted for one client is refused from another. Without a configured key, a random one of
 * this process: a retry that another process answers is then refused as an invalid state.
 */
export function askedStateCodec(key: string | undefined): AskedStateCodec {
  return createRequestStateCodec<AskedState>({
    key: key ?? randomBytes(32),
    bind: (ctx: ServerContext) => {
      const auth = requestCaller.getStore()?.auth;
      return [ctx.mcpReq.method, auth?.clientId ?? "", auth?.subject ?? ""].join("\0");
    },
  });
}
