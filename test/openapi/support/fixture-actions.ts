import { join } from "node:path";
import type { ActionDefinition } from "../../../src/core/action";
import * as catalog from "../../fixtures/apps/openapi/actions/catalog";
import * as misc from "../../fixtures/apps/openapi/actions/misc";
import * as users from "../../fixtures/apps/openapi/actions/users";

export const FIXTURE_APP = join(__dirname, "../../fixtures/apps/openapi");

/** A fresh instance of every action of the fixture app, as the loader would build them. */
export function fixtureActions(): ActionDefinition[] {
  return [users, catalog, misc].flatMap((module) =>
    Object.values(module).map((actionClass) => new (actionClass as new () => ActionDefinition)()),
  );
}
