/**
 * The code a sandbox run loads into its fresh context: a self-contained
 * classic script (no `import`/`require`) that defines a global entry function.
 * Workers compile a bundle once per isolate, keyed by `id`, and keep V8's
 * code cache for it, so the same `id` must always mean the same `source`.
 */
import { createHash } from 'node:crypto';

/** JavaScript source to load in the isolate, and the id under which workers cache its compiled form. */
export interface RuntimeBundle {
  /** Stable id of this exact source (for example a content hash); see `createRuntimeBundle`. */
  readonly id: string;
  /** A classic script that assigns its entry function(s) to `globalThis`. */
  readonly source: string;
}

/** Builds a bundle whose id is `name@` plus a hash of the source, so a changed source never reuses stale code. */
export function createRuntimeBundle(source: string, name = 'runtime'): RuntimeBundle {
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  return Object.freeze({ id: `${name}@${hash}`, source });
}
