/**
 * Where the worker's entry file is. From sources (vitest, or Node 24 running
 * `.ts` directly) the pool forks `worker-main.ts` itself, which Node runs by
 * stripping types, with `--conditions=@askloop/source`; from a build it forks
 * the compiled `dist/sandbox/worker-main.js`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A script to fork and the extra Node flags it needs (besides `--no-node-snapshot`). */
export interface WorkerEntry {
  readonly path: string;
  readonly execArgv: readonly string[];
}

/** Finds the worker entry relative to this module. */
export function defaultWorkerEntry(moduleUrl: string = import.meta.url): WorkerEntry {
  if (/\.[cm]?ts$/.test(new URL(moduleUrl).pathname)) {
    return { path: fileURLToPath(new URL('./worker-main.ts', moduleUrl)), execArgv: ['--conditions=@askloop/source'] };
  }
  // Bundled: this code sits in dist/ (index or a chunk); the entry is built to dist/sandbox/.
  for (const candidate of ['./sandbox/worker-main.js', './worker-main.js']) {
    const path = fileURLToPath(new URL(candidate, moduleUrl));
    if (existsSync(path)) return { path, execArgv: [] };
  }
  return { path: fileURLToPath(new URL('./sandbox/worker-main.js', moduleUrl)), execArgv: [] };
}
