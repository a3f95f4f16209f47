import { Action, Connection, HTTP_METHOD, Web } from "herald";

/** Counts the caller's visits in their session (Redis, shared by both processes). */
@Web({ route: "/visit", method: HTTP_METHOD.POST })
@Action({ name: "session:visit" })
export class Visit {
  async run(_params: unknown, connection: Connection) {
    const session = connection.session!;
    const visits = (session.get<number>("visits") ?? 0) + 1;
    await session.set("visits", visits);
    return { visits };
  }
}
