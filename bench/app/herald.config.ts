import { defineConfig } from "herald";

export default defineConfig({
  actions: "actions",
  middleware: "middleware",
});
