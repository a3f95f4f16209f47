import type { Connection } from "./connection";

/** What a call's transport says of it in its log lines, beside its connection's ids (DispatchOptions.logFields). */
export type CallLogFields = Readonly<Record<string, string | number>>;

/** The ids every log line about a call carries: its connection's, its request's, and its transport's own (a message's, a job's). */
export function callIds(connection: Connection, fields: CallLogFields | undefined): Record<string, string | number> {
  const ids: Record<string, string | number> = { connectionId: connection.id };
  if (connection.requestId) ids.requestId = connection.requestId;
  return fields ? Object.assign(ids, fields) : ids;
}
