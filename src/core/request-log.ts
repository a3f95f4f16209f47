import type { ActionPlans } from "./action-plan";
import type { CallMetrics } from "./call-metrics";
import { type CallLogFields, callIds } from "./call-ids";
import type { Connection } from "./connection";
import { declaredErrors } from "./declared-errors";
import { ErrorType, type TypedError } from "./errors";
import type { LoggedCall } from "./logged-call";
import { LogParams, loggedParams } from "./log-params";
import { isLevelOn, type Logger } from "./logger";
import type { RegisteredAction } from "./registry";

/** The log line of an outcome that is no failure, though the call did not answer. */
const OUTCOME_MESSAGES: Partial<Record<ErrorType, string>> = {
  [ErrorType.CONNECTION_CLIENT_GONE]: "client gone",
  [ErrorType.CONNECTION_INPUT_REQUIRED]: "input required",
};

export interface RequestLogOptions {
  logger: Logger;
  /** What the line says of params (LOG_PARAMS); values by default. */
  logParams?: LogParams;
  /** Outside production: an error an action does not declare is logged as a contract breach. */
  checkDeclared?: boolean;
  /** The deadline of an action without its own `timeout`. */
  actionTimeout: number;
  /** Where each call's duration is recorded; nowhere when metrics are off. */
  calls?: CallMetrics;
}

/** The request log: one line per call, written once the caller's answer is known. */
export class RequestLog {
  constructor(
    private readonly plans: ActionPlans,
    private readonly options: RequestLogOptions,
  ) {}

  write(
    registered: RegisteredAction | undefined,
    params: unknown,
    validated: boolean,
    connection: Connection,
    result: LoggedCall,
    fields?: CallLogFields,
  ): void {
    const { logger } = this.options;
    this.options.calls?.record(registered, connection.type, result);
    if (result.error && registered?.action.errors && this.options.checkDeclared) this.checkDeclared(registered, result.error, connection, fields);
    const failed = result.status >= 500;
    if (!isLevelOn(logger, failed ? "error" : "info")) return;
    // An unknown action's name comes from the caller: a child logger per name would grow without bound.
    const entry: Record<string, unknown> = registered ? {} : { action: result.actionName, connection: connection.type };
    entry.connectionId = connection.id;
    entry.durationMs = Math.round(result.durationMs * 1000) / 1000;
    entry.status = result.status;
    Object.assign(entry, loggedParams(this.options.logParams ?? LogParams.values, registered?.action.inputs, params, validated));
    if (connection.requestId) entry.requestId = connection.requestId;
    if (fields) Object.assign(entry, fields);
    if (result.error) {
      entry.error = { type: result.error.type, message: result.error.message };
      if (failed) entry.err = result.error.cause ?? result.error;
    }
    const lineLogger = registered ? this.loggerOf(registered, connection.type) : logger;
    if (failed) lineLogger.error(entry, "action failed");
    else lineLogger.info(entry, (result.error && OUTCOME_MESSAGES[result.error.type]) ?? "action");
  }

  /** The logger for `registered`'s lines from `connectionType`, at the process logger's level. */
  private loggerOf(registered: RegisteredAction, connectionType: string): Logger {
    const { logger } = this.options;
    const { requestLoggers } = this.plans.of(registered);
    let requestLogger = requestLoggers.get(connectionType);
    if (!requestLogger) {
      requestLogger = logger.child({ action: registered.name, connection: connectionType });
      requestLoggers.set(connectionType, requestLogger);
    }
    // pino's children follow their parent's level, but a Logger of the app's own may keep the one it was made with.
    if (requestLogger.level !== logger.level) requestLogger.level = logger.level;
    return requestLogger;
  }

  /**
   * An error the action's declared set lacks is logged as a contract breach: the caller still gets
   * it as it is, the contract (OpenAPI document, client types) is what is wrong.
   */
  private checkDeclared(registered: RegisteredAction, error: TypedError, connection: Connection, fields: CallLogFields | undefined): void {
    const plan = this.plans.of(registered);
    plan.declared ??= new Set(
      declaredErrors(registered.action, {
        middleware: plan.chain,
        timeoutApplies: (registered.action.timeout ?? this.options.actionTimeout) !== 0,
      }).keys(),
    );
    if (plan.declared.has(error.type)) return;
    this.options.logger.warn(
      { action: registered.name, ...callIds(connection, fields), errorType: error.type },
      "contract breach: action ended with an error it does not declare",
    );
  }
}
