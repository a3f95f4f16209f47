import {
  rateLimit,
  type ActionMiddleware,
  type AfterContext,
  type Connection,
  type HeraldServer,
  type RateLimitMiddleware,
  type RateLimitOptions,
} from "herald";

/**
 * A `rateLimit()` whose options come from the app's settings, which are known only once the server
 * is: `rateLimit()` takes its options when the class is made, so this one makes it in its constructor.
 */
export abstract class ConfiguredRateLimit implements ActionMiddleware {
  private readonly limit: RateLimitMiddleware;
  readonly errors: RateLimitMiddleware["errors"];

  protected constructor(server: HeraldServer, options: RateLimitOptions) {
    const Limit = rateLimit(options);
    this.limit = new Limit(server);
    this.errors = this.limit.errors;
  }

  runBefore(params: Record<string, unknown>, connection: Connection) {
    return this.limit.runBefore!(params, connection);
  }

  async runAfter(params: Record<string, unknown>, connection: Connection, error?: Error, context?: AfterContext) {
    await this.limit.runAfter?.(params, connection, error, context);
  }
}
