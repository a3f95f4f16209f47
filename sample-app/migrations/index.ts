import { InitialSchema1763769600000 } from "./1763769600000-initial-schema";

/** Every migration of the app, oldest first. Listed by import, so they load the same from src and dist. */
export const MIGRATIONS = [InitialSchema1763769600000];
