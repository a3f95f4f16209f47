import { defineConfig } from "herald";

// Where the app keeps its parts, relative to this file.
export default defineConfig({
  // Loaded at boot: every .ts file in these folders, so placing a file there is enough to
  // register what it exports.
  actions: "actions",
  initializers: "initializers",
  middleware: "middleware",
  channels: "channels",{{databaseConfig}}
  // Static files, served at /.
  public: "public",
  // Where `herald generate` writes services and tests. Not loaded at boot: the container makes a
  // service when a constructor first asks for it.
  services: "services",
  tests: "test",
});
