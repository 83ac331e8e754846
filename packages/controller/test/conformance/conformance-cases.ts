/**
 * The controller's conformance cases as data: one folder per case under
 * `test/conformance/` (agent.json, replies.json, expected.json, input.json).
 * Shared by the conformance runner and the crash-point sweep.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The case names, sorted. */
export const CONFORMANCE_CASES: readonly string[] = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** A case's JSON file; `fallback` when the file is absent (else reading throws). */
export function readCaseFile<T>(name: string, file: string, fallback?: T): T {
  const path = join(root, name, file);
  if (!existsSync(path) && fallback !== undefined) return fallback;
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
