/**
 * Semantic-convention attribute names that are not yet stable, so not exported by
 * `@opentelemetry/semantic-conventions`' main entry: its maintainers ask to copy the incubating
 * ones rather than import them, as they may change in a minor release. Stable names are imported
 * from the package where they are used.
 */
export const ATTR_RPC_RESPONSE_STATUS_CODE = "rpc.response.status_code";
export const ATTR_MESSAGING_SYSTEM = "messaging.system";
export const ATTR_MESSAGING_DESTINATION_NAME = "messaging.destination.name";
export const ATTR_MESSAGING_OPERATION_TYPE = "messaging.operation.type";
export const ATTR_MESSAGING_OPERATION_NAME = "messaging.operation.name";
export const ATTR_MESSAGING_MESSAGE_ID = "messaging.message.id";
export const ATTR_MESSAGING_BATCH_MESSAGE_COUNT = "messaging.batch.message_count";
export const ATTR_MCP_METHOD_NAME = "mcp.method.name";
export const ATTR_MCP_SESSION_ID = "mcp.session.id";
export const ATTR_MCP_RESOURCE_URI = "mcp.resource.uri";
export const ATTR_MCP_PROTOCOL_VERSION = "mcp.protocol.version";
export const ATTR_JSONRPC_REQUEST_ID = "jsonrpc.request.id";
export const ATTR_GEN_AI_TOOL_NAME = "gen_ai.tool.name";
export const ATTR_GEN_AI_PROMPT_NAME = "gen_ai.prompt.name";
export const ATTR_GEN_AI_OPERATION_NAME = "gen_ai.operation.name";

/** Herald's own: the transport an action call came over (`web`, `websocket`, `cli`, `task`, `mcp`). */
export const ATTR_HERALD_TRANSPORT = "herald.transport";
/** The value of `rpc.system.name` on action call spans. */
export const RPC_SYSTEM_HERALD = "herald";
