/**
 * Which of a run's tools its sandbox worker answers itself, and where the
 * worker finds their code. The host passes both to the interpreter
 * (`execute({ localTools })`); the worker's answers are then booked on the
 * turn's tool host (`ToolHost.recordLocalCall`), so call indexes, counters
 * and records are what they would be had the host made the calls.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Policy } from '../policy/policy.ts';
import type { ToolRegistry } from '../registry/tool-registry.ts';
import { isWorkerLocal } from './worker-local.ts';

/**
 * The tools of `names` (canonical names, the ones a checked program calls) a
 * sandbox worker may answer: built-in pure tools (`str`, `list`, `map`,
 * `math`, `json`; not a plugin's tool of the same name) that `policy` allows
 * without a capability, when no call limit of the policy counts them (limits
 * are counted in the host, call by call). None when the policy limits calls
 * per turn or per session.
 */
export function workerLocalTools(registry: ToolRegistry, policy: Policy, names: readonly string[]): string[] {
  const { perTurn, perSession, tools: perTool } = policy.limits;
  if (perTurn !== undefined || perSession !== undefined) return [];
  return names.filter((name) => {
    const found = registry.lookup(name);
    if (found === undefined || !isWorkerLocal(found.definition)) return false;
    const { spec } = found.definition;
    return perTool?.[spec.name] === undefined && spec.capabilities.length === 0 && spec.scopes === undefined && policy.check(spec).ok;
  });
}

/** This package's own module URL, found once (a build looks on disk). */
let ownModule: string | undefined;

/**
 * The URL of the module a sandbox worker imports to answer those tools
 * (`local-tools.ts`): beside this file in the sources, `dist/local/local-tools.js`
 * in a build (this code is then bundled into a file of `dist/`).
 */
export function localToolsModule(moduleUrl?: string): string {
  if (moduleUrl === undefined) return (ownModule ??= localToolsModule(import.meta.url));
  if (/\.[cm]?ts$/.test(new URL(moduleUrl).pathname)) return new URL('./local-tools.ts', moduleUrl).href;
  for (const candidate of ['./local/local-tools.js', './local-tools.js']) {
    const url = new URL(candidate, moduleUrl);
    if (existsSync(fileURLToPath(url))) return url.href;
  }
  return new URL('./local/local-tools.js', moduleUrl).href;
}
