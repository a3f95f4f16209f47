import { z } from "zod";
import { HeraldServer, injectable, readSettings } from "herald";
import { ConfiguredRateLimit } from "../lib/configured-rate-limit";

const ONE_HOUR = 60 * 60_000;

export const exportSettings = z.object({
  EXPORTS_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
});

/**
 * An export reads every message: anyone may ask for one, a few times an hour per address. Over MCP
 * the call that creates the export's task counts; its job (a task connection, no address) does not.
 */
@injectable()
export class LimitExportsPerAddress extends ConfiguredRateLimit {
  constructor(server: HeraldServer) {
    super(server, {
      name: "exports-per-address",
      limit: readSettings(exportSettings, server.config).EXPORTS_PER_ADDRESS,
      windowMs: ONE_HOUR,
      by: (connection) => connection.remoteAddress,
    });
  }
}
