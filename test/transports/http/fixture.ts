import { join } from "node:path";

/** The small app most HTTP tests boot. */
export const HTTP_APP = join(__dirname, "../../fixtures/apps/http-app");
