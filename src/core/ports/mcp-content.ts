/** Bytes as MCP carries them: base64 text. */
type Bytes = Uint8Array | string;

/** Bytes as base64 text; text is taken to be base64 already. */
export function base64(data: Bytes): string {
  return typeof data === "string" ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
}

export type McpContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string } }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; description?: string };

/**
 * A response made of MCP content blocks — text, images, audio, embedded resources — for what JSON
 * alone cannot show a model. An MCP tool call returns the blocks as its content; every other
 * transport receives `{ "content": [...] }`, the same blocks as JSON (bytes as base64).
 */
export class McpContent {
  constructor(readonly content: readonly McpContentBlock[]) {}

  toJSON(): { content: readonly McpContentBlock[] } {
    return { content: this.content };
  }
}

/** Builders of MCP content blocks, and of a response made of them: `mcpContent.of(mcpContent.text("…"), mcpContent.image(png, "image/png"))`. */
export const mcpContent = {
  of: (...blocks: McpContentBlock[]): McpContent => new McpContent(blocks),
  text: (text: string): McpContentBlock => ({ type: "text", text }),
  /** Bytes, or base64 text. */
  image: (data: Bytes, mimeType: string): McpContentBlock => ({ type: "image", data: base64(data), mimeType }),
  audio: (data: Bytes, mimeType: string): McpContentBlock => ({ type: "audio", data: base64(data), mimeType }),
  /** An embedded resource: text, or bytes sent as a blob. */
  resource: (resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: Bytes }): McpContentBlock => ({
    type: "resource",
    resource: "blob" in resource ? { ...resource, blob: base64(resource.blob) } : resource,
  }),
  link: (link: { uri: string; name: string; mimeType?: string; description?: string }): McpContentBlock => ({ type: "resource_link", ...link }),
};
