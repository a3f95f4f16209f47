import type { RegisteredAction } from "../../core/registry";

/** An action's route as it declares it, beneath the API prefix (`http.route`); a regular expression by its source. */
export function routeTemplate(apiPrefix: string, entry: RegisteredAction): string {
  const route = entry.action.web!.route;
  if (route instanceof RegExp) return `${apiPrefix}${route.source}`;
  return `${apiPrefix}${route.startsWith("/") ? route : `/${route}`}`;
}
