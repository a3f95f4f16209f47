import { DataSource } from "typeorm";
import { z } from "zod";
import { HTTP_METHOD, Web, paginate, paginationInputs, paginationOutputs, type Action, type ActionParams } from "herald";
import { {{pascal}} } from "{{entityFromActions}}";
import { {{camel}}NotFound, {{camel}}NotFoundErrors, serialize{{pascal}}, z{{pascal}}Fields, z{{pascal}}Id, z{{pascal}}Schema } from "{{schemasFromActions}}";

// The actions write with single statements, never in a transaction of TypeORM's making: on the
// embedded database every connection shares one session, so a transaction would take in the
// queries of concurrent calls (docs/database.md).

@Web({ route: "/{{pluralKebab}}", method: HTTP_METHOD.POST })
export class {{pascal}}Create implements Action {
  name = "{{kebab}}:create";
  description = "Create a {{words}}";
  inputs = z{{pascal}}Fields;
  outputs = z.object({ {{camel}}: z{{pascal}}Schema });
  // Declared, though none are its own, so that any other error it ends with is logged as a contract breach.
  errors = {};

  constructor(private readonly dataSource: DataSource) {}

  async run(params: ActionParams<{{pascal}}Create>) {
    const repository = this.dataSource.getRepository({{pascal}});
    const created = await repository.save(repository.create(params), { transaction: false });
    return { {{camel}}: serialize{{pascal}}(created) };
  }
}

@Web({ route: "/{{pluralKebab}}", method: HTTP_METHOD.GET })
export class {{pascal}}List implements Action {
  name = "{{kebab}}:list";
  description = "The {{pluralWords}}, newest first, one page at a time";
  inputs = paginationInputs({ defaultLimit: 25, maxLimit: 100 });
  outputs = z.object({ {{pluralCamel}}: z.array(z{{pascal}}Schema), pagination: paginationOutputs });
  errors = {};

  constructor(private readonly dataSource: DataSource) {}

  async run(params: ActionParams<{{pascal}}List>) {
    // One pooled connection for the call, on which paginate's two queries queue rather than each
    // taking one: then the bound on one address's calls in flight bounds its connections too.
    const connection = this.dataSource.createQueryRunner();
    try {
      const repository = connection.manager.getRepository({{pascal}});
      const query = repository.createQueryBuilder("{{camel}}").orderBy("{{camel}}.id", "DESC");
      const page = await paginate(query, repository.count(), params);
      return { {{pluralCamel}}: page.data.map((row) => serialize{{pascal}}(row)), pagination: page.pagination };
    } finally {
      await connection.release();
    }
  }
}

@Web({ route: "/{{pluralKebab}}/:id", method: HTTP_METHOD.GET })
export class {{pascal}}View implements Action {
  name = "{{kebab}}:view";
  description = "One {{words}}, by id";
  inputs = z.object({ id: z{{pascal}}Id });
  outputs = z.object({ {{camel}}: z{{pascal}}Schema });
  errors = {{camel}}NotFoundErrors;

  constructor(private readonly dataSource: DataSource) {}

  async run(params: ActionParams<{{pascal}}View>) {
    const found = await this.dataSource.getRepository({{pascal}}).findOneBy({ id: params.id });
    if (!found) throw {{camel}}NotFound(params.id);
    return { {{camel}}: serialize{{pascal}}(found) };
  }
}

@Web({ route: "/{{pluralKebab}}/:id", method: HTTP_METHOD.PATCH })
export class {{pascal}}Edit implements Action {
  name = "{{kebab}}:edit";
  description = "Change a {{words}}: the fields given, the others kept";
  inputs = z{{pascal}}Fields.partial().extend({ id: z{{pascal}}Id });
  outputs = z.object({ {{camel}}: z{{pascal}}Schema });
  errors = {{camel}}NotFoundErrors;

  constructor(private readonly dataSource: DataSource) {}

  async run(params: ActionParams<{{pascal}}Edit>) {
    const { id, ...changes } = params;
    const repository = this.dataSource.getRepository({{pascal}});
    // An UPDATE by id, which changes nothing once the row is gone: save() would insert it again
    // had a delete come between reading and saving.
    if (Object.keys(changes).length > 0) await repository.update({ id }, changes);
    const found = await repository.findOneBy({ id });
    if (!found) throw {{camel}}NotFound(id);
    return { {{camel}}: serialize{{pascal}}(found) };
  }
}

@Web({ route: "/{{pluralKebab}}/:id", method: HTTP_METHOD.DELETE })
export class {{pascal}}Delete implements Action {
  name = "{{kebab}}:delete";
  description = "Delete a {{words}}; answers with it as it was";
  inputs = z.object({ id: z{{pascal}}Id });
  outputs = z.object({ {{camel}}: z{{pascal}}Schema });
  errors = {{camel}}NotFoundErrors;

  constructor(private readonly dataSource: DataSource) {}

  async run(params: ActionParams<{{pascal}}Delete>) {
    const repository = this.dataSource.getRepository({{pascal}});
    const found = await repository.findOneBy({ id: params.id });
    if (!found) throw {{camel}}NotFound(params.id);
    // RETURNING tells whether this call deleted it, or a concurrent one did first.
    const deleted = await repository.createQueryBuilder().delete().where({ id: params.id }).returning("id").execute();
    if ((deleted.raw as unknown[]).length === 0) throw {{camel}}NotFound(params.id);
    return { {{camel}}: serialize{{pascal}}(found) };
  }
}
