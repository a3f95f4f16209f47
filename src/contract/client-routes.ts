import { allowsTransport } from "../core/action-transports";
import { CONNECTION_TYPE } from "../core/constants";
import { actionsOf, ActionSource } from "./action-source";
import { documentRoute } from "./route-path";

/** How `herald/client` calls one action over HTTP: its method and its paths, fullest first. */
export interface ClientRoute {
  method: string;
  /** OpenAPI path templates below the API prefix (`/user/{id}`), each with the names it fills. */
  paths: { template: string; params: string[] }[];
}

/** What `<prefix>/routes.json` serves: the prefix, and the route of each action served over HTTP. */
export interface ClientRoutes {
  prefix: string;
  actions: Record<string, ClientRoute>;
}

/**
 * The routes of the actions a client may call over HTTP, as the OpenAPI document lists them,
 * without their schemas: a client fetches this once instead of the whole document. An action
 * whose route no path template can express (a free RegExp) is left out, as it is from the document.
 */
export function clientRoutes(source: ActionSource, prefix: string): ClientRoutes {
  const actions: Record<string, ClientRoute> = {};
  for (const action of actionsOf(source)) {
    if (!action.web || !allowsTransport(action, CONNECTION_TYPE.web)) continue;
    const routes = documentRoute(action.web.route);
    if ("unlisted" in routes) continue;
    actions[action.name] = {
      method: String(action.web.method).toUpperCase(),
      paths: routes.paths.map((path) => ({ template: path.template, params: path.params.map((param) => param.name) })),
    };
  }
  return { prefix, actions };
}
