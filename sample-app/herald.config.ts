import { defineConfig } from "herald";

export default defineConfig({
  actions: "actions",
  initializers: "initializers",
  middleware: "middleware",
  channels: "channels",
  public: "public",
  // The built-in OAuth authorization server: MCP clients sign in with session:create's form.
  oauth: { signIn: "session:create" },
});
