import { findAppDir } from "../../core/app-config";
import { ErrorType, TypedError } from "../../core/errors";
import { findCliAppConfig } from "../cli-app";
import { BUILTIN_GENERATORS } from "./builtin-generators";
import { isPluginGenerator, PluginGenerator } from "./plugin-generator";

const TYPE_PATTERN = /^[a-z][a-z0-9-]*$/;

/** The built-in generators followed by the plugin generators listed in the app's config. */
export function generatorsFor(plugins: readonly unknown[]): PluginGenerator[] {
  const generators = [...BUILTIN_GENERATORS];
  for (const plugin of plugins.filter(isPluginGenerator)) {
    if (!TYPE_PATTERN.test(plugin.type)) {
      throw new TypedError({
        message: `A plugin generator has the type "${plugin.type}": use lower case letters, digits and "-"`,
        type: ErrorType.CONFIG_ERROR,
      });
    }
    if (generators.some((generator) => generator.type === plugin.type)) {
      throw new TypedError({
        message: `Two generators have the type "${plugin.type}": rename the plugin's`,
        type: ErrorType.CONFIG_ERROR,
      });
    }
    generators.push(plugin);
  }
  return generators;
}

/**
 * Every type `herald generate` accepts: the built-in ones and those of the plugins in the
 * herald.config.ts of the app at `appDir` (found from the working directory by default).
 */
export function getValidTypes(appDir: string | undefined = findAppDir()): string[] {
  return generatorsFor(findCliAppConfig(appDir)?.plugins ?? []).map((generator) => generator.type);
}
