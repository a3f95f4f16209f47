import { defineConfig } from "herald";

// Where the app keeps its parts, relative to this file. Every .ts file in these folders is
// loaded at boot: placing a file there is enough to register what it exports.
export default defineConfig({
  actions: "actions",
  initializers: "initializers",
  middleware: "middleware",
  channels: "channels",
  services: "services",{{databaseConfig}}
  public: "public",
  tests: "test",
});
