import { defineConfig } from "herald";

export default defineConfig({ actions: "actions", initializers: "initializers", channels: "channels" });
