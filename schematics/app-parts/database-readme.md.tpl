
## The database

Herald's built-in database (`database` in `herald.config.ts`) runs
[TypeORM](https://typeorm.io) over the entity classes of `entities/` and the migrations of
`migrations/`. Without `DATABASE_URL` it is PGlite, a real PostgreSQL inside the process, with its
files in `.data/pglite` (in memory under `npm test`); with `DATABASE_URL=postgres://…` it is that
server. Pending migrations run at boot.

```sh
npx herald generate resource note   # entity, migration, note:create/list/view/edit/delete and tests
npx herald migrate generate add-note-title   # after editing an entity: the migration for it
npx herald migrate status
```
