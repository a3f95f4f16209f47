import { request } from "node:http";

/** The tasks extension's identifier. */
export const TASKS = "io.modelcontextprotocol/tasks";

export interface RpcAnswer {
  status: number;
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: any };
}

let nextId = 0;

/**
 * One 2026-07-28 JSON-RPC request over Streamable HTTP, framed as the SDK client frames it
 * (protocol version, client info and capabilities in `_meta`; `Mcp-Method` and `Mcp-Name`
 * headers), from `localAddress` (a caller of its own) when given.
 */
export function rpc(
  mcpUrl: string,
  method: string,
  params: Record<string, unknown>,
  options: { capabilities?: Record<string, unknown>; localAddress?: string; headers?: Record<string, string> } = {},
): Promise<RpcAnswer> {
  nextId += 1;
  const name = typeof params.name === "string" ? params.name : typeof params.taskId === "string" ? params.taskId : undefined;
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": options.capabilities ?? {},
  };
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId, method, params: { ...params, _meta: meta } });
  return new Promise((resolve, reject) => {
    const sent = request(
      mcpUrl,
      {
        method: "POST",
        agent: false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        headers: {
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...(name ? { "mcp-name": name } : {}),
          ...options.headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          // A JSON body, or the one message of a server-sent event stream.
          const json = response.headers["content-type"]?.startsWith("text/event-stream") ? /^data: (.*)$/m.exec(text)?.[1] : text;
          try {
            const message = JSON.parse(json ?? "") as Omit<RpcAnswer, "status">;
            resolve({ status: response.statusCode!, ...(message.result ? { result: message.result } : {}), ...(message.error ? { error: message.error } : {}) });
          } catch (error) {
            reject(new Error(`not a JSON-RPC answer (${response.statusCode}): ${text.slice(0, 300)}`, { cause: error }));
          }
        });
      },
    );
    sent.once("error", reject);
    sent.end(body);
  });
}
