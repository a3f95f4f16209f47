export { useTestServer, startTestServer, testServer, serverUrl, HOOK_TIMEOUT } from "./test-server";
export type { TestServerOptions } from "./test-server";
export { waitFor } from "./wait-for";
export type { WaitForOptions } from "./wait-for";
