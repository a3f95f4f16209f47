import { defineConfig } from "herald";

export default defineConfig({
  actions: "actions",
  initializers: "initializers",
  middleware: "middleware",
  channels: "channels",
  public: "public",
});
