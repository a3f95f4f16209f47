import { Pool } from "pg";
import { z } from "zod";
import { Action, ChannelPublisher, HTTP_METHOD, Web } from "herald";

@Web({ route: "/notes", method: HTTP_METHOD.PUT })
@Action({ name: "notes:add", inputs: z.object({ body: z.string().min(1).max(500) }) })
export class AddNote {
  constructor(
    private readonly pool: Pool,
    private readonly publisher: ChannelPublisher,
  ) {}

  async run(params: { body: string }) {
    const { rows } = await this.pool.query<{ id: number }>("INSERT INTO soak_notes (body) VALUES ($1) RETURNING id", [params.body]);
    const note = { id: rows[0]!.id, body: params.body };
    await this.publisher.publish("notes", note);
    return { note };
  }
}

@Web({ route: "/notes", method: HTTP_METHOD.GET })
@Action({ name: "notes:list", inputs: z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }) })
export class ListNotes {
  constructor(private readonly pool: Pool) {}

  async run(params: { limit: number }) {
    const [{ rows }, { rows: counted }] = await Promise.all([
      this.pool.query("SELECT id, body FROM soak_notes ORDER BY id DESC LIMIT $1", [params.limit]),
      this.pool.query<{ count: string }>("SELECT count(*) FROM soak_notes"),
    ]);
    return { notes: rows, total: Number(counted[0]!.count) };
  }
}
