import { findAppDir } from "../core/app-config";
import { appManifest } from "../core/app-manifest";
import { loadConfig, resolveEnvironment } from "../core/config";
import { loadEnvFilesIntoProcess } from "../core/env-files";
import { ErrorType, TypedError } from "../core/errors";
import { createLogger, type Logger } from "../core/logger";
import { findCliAppConfig, noAppError, type CliAppOptions } from "./cli-app";
import { sharedSecrets } from "./cluster-secrets";
import { ProcessCluster } from "./process-cluster";
import { manyProcessesRefusal, processCount } from "./process-count";

/**
 * `herald start --processes <n>` (or PROCESSES): runs the cluster's primary here and resolves
 * with its exit code once every server process has stopped. Undefined when one process is
 * asked for, or none said: this process then serves, as always. The primary loads neither the
 * app nor a transport: its server processes do.
 */
export async function runClusterIfAsked(options: CliAppOptions & { processes?: string }): Promise<number | undefined> {
  const appDir = options.appDir ?? findAppDir();
  if (!appDir) throw noAppError();
  // Read here as the server reads them, so that PROCESSES may come from the app's .env too.
  loadEnvFilesIntoProcess(appDir);
  const count = processCount(options.processes, resolveEnvironment(process.env));
  if (count === undefined || count === 1) return undefined;
  const app = findCliAppConfig(appDir)!;
  const config = loadConfig(process.env, { name: appManifest(appDir).name });
  const refusal = manyProcessesRefusal(config, app);
  if (refusal) {
    throw new TypedError({ message: `herald start cannot run ${count} processes: ${refusal}`, type: ErrorType.CONFIG_ERROR, key: "processes", value: count });
  }
  const logger = createLogger({ level: config.logLevel, format: config.logFormat, name: "primary" });
  const secrets = config.production ? {} : sharedSecrets(config.raw, app);
  if (Object.keys(secrets).length > 0) {
    logger.warn({ made: Object.keys(secrets) }, "secrets made for this run's processes, shared by all of them: what they sign is worthless after a restart; set them to keep it");
  }
  const cluster = new ProcessCluster(count, logger, secrets);
  stopOnSignals(cluster, logger);
  return cluster.run();
}

/** The first SIGINT or SIGTERM stops the processes gracefully; a second kills them. */
function stopOnSignals(cluster: ProcessCluster, logger: Logger): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      logger.warn({ signal }, "second signal: killing the server processes");
      return cluster.kill();
    }
    signalled = true;
    logger.info({ signal }, "stopping the server processes");
    void cluster.stop();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}
