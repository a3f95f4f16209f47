import type { Connection, GlobalMiddleware } from "herald";
import { countRequest } from "../../shared/request-counter";

/** The one global middleware of the scenarios: as cheap as the baselines' own. */
export class RequestCounter implements GlobalMiddleware {
  static readonly global = true;

  async runBefore(_params: unknown, connection: Connection) {
    connection.state.requestNumber = countRequest();
  }
}
