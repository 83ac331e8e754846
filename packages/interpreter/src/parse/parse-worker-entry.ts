/**
 * Where the parse worker's file is: beside this module when running from
 * TypeScript sources (vitest, Node 24 stripping types), or the built
 * `dist/parse/parse-worker.js` when this code is bundled into `dist/`.
 */
import { existsSync } from 'node:fs';

/** The worker file's URL, relative to the module at `moduleUrl`. */
export function parseWorkerUrl(moduleUrl: string = import.meta.url): URL {
  if (/\.[cm]?ts$/.test(new URL(moduleUrl).pathname)) return new URL('./parse-worker.ts', moduleUrl);
  // Bundled: this code sits in dist/ (index or a chunk); the worker is built to dist/parse/.
  for (const candidate of ['./parse/parse-worker.js', './parse-worker.js']) {
    const url = new URL(candidate, moduleUrl);
    if (existsSync(url)) return url;
  }
  return new URL('./parse/parse-worker.js', moduleUrl);
}
