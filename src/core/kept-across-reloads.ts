/**
 * What an app keeps open across the reloads of `herald dev`, which serve changed code in the same
 * process: an embedded database, which would take longer to open again than the rest of a boot.
 * Outside such a reload nothing is kept, and the app releases what it holds as it always does.
 */
const REGISTRY = Symbol.for("herald.keptAcrossReloads");

interface KeptValue {
  value: unknown;
  dispose: (value: unknown) => unknown;
}

interface KeptRegistry {
  kept: Map<string, KeptValue>;
  /** Set while a reload stops the app and boots it again. */
  reloading: boolean;
}

/**
 * One registry per process, on a global symbol: an app whose "herald" resolves to another copy of
 * the package (a link, a path mapping) keeps and reclaims through the same one as `herald dev`.
 */
const globals = globalThis as { [REGISTRY]?: KeptRegistry };
const registry: KeptRegistry = (globals[REGISTRY] ??= { kept: new Map(), reloading: false });
const { kept } = registry;

/**
 * While `herald dev` stops the app to boot its changed code in the same process, holds `value`
 * for the next boot to `reclaimKept`, and answers true: the caller must not release it. Outside a
 * reload (a real stop, `herald start`, a test server) answers false, and the caller releases it.
 * `dispose` releases it when the next boot does not reclaim it, or when `herald dev` ends.
 */
export function keepAcrossReload<T>(key: string, value: T, dispose: (value: T) => unknown): boolean {
  if (!registry.reloading) return false;
  kept.set(key, { value, dispose: dispose as (value: unknown) => unknown });
  return true;
}

/** What the boot before this one kept under `key`, handed over once; undefined when nothing was kept. */
export function reclaimKept<T>(key: string): T | undefined {
  const entry = kept.get(key);
  kept.delete(key);
  return entry?.value as T | undefined;
}

/**
 * Runs a reload: `stop` and `boot` with `keepAcrossReload` holding what the app keeps. A boot that
 * fails leaves what it did not reclaim for the next attempt; one that succeeds releases it, since
 * the new code no longer asks for it.
 */
export async function reloadKeeping<T>(stop: () => Promise<void>, boot: () => Promise<T>, onReleaseError: (error: unknown) => void): Promise<T> {
  registry.reloading = true;
  try {
    await stop();
    const booted = await boot();
    await releaseKept(onReleaseError);
    return booted;
  } finally {
    registry.reloading = false;
  }
}

/** Releases everything still kept: after a boot that did not reclaim it, and when `herald dev` ends. */
export async function releaseKept(onError: (error: unknown) => void): Promise<void> {
  const entries = [...kept.values()];
  kept.clear();
  for (const { value, dispose } of entries) {
    try {
      await dispose(value);
    } catch (error) {
      onError(error);
    }
  }
}
