/** The values a client is built from (base URL, key, organisation, …), compared one by one. */
export type ClientConfig = readonly (string | null | undefined)[];

/**
 * Keeps one SDK client for a provider and builds it lazily, once: every
 * request of every model of the provider reuses it. Building a client per
 * request cost about 6 KiB of heap and 40 µs of CPU each (the OpenAI client
 * builds 27 resource objects and their sub-resources, and its options).
 *
 * The config is read again on every call because a key or URL may come from
 * the environment at call time; a different config builds a new client, which
 * replaces the old one (a provider normally sees one config for its life).
 * Two concurrent first calls share one build; a failed build is not kept.
 */
export function sharedClient<T>(build: (config: ClientConfig) => T | Promise<T>): (config: ClientConfig) => Promise<T> {
  let kept: { config: ClientConfig; client: Promise<T> } | undefined;
  return (config) => {
    if (kept !== undefined && sameConfig(kept.config, config)) return kept.client;
    const entry = { config: [...config], client: Promise.resolve().then(() => build(config)) };
    entry.client.catch(() => {
      if (kept === entry) kept = undefined;
    });
    kept = entry;
    return entry.client;
  };
}

function sameConfig(a: ClientConfig, b: ClientConfig): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
