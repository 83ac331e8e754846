/** Builds a `RunResult` from collected emits and whispers (seed 003 §4: each appends `<text>\n`). */
import type { Diagnostic } from '../parse/index.ts';
import type { ScriptErrorData } from '../runtime/index.ts';
import type { RunResult, RunUsage } from './run-types.ts';

/** Assembles the result of a run. */
export function assembleResult(
  emits: readonly string[],
  whispers: readonly { readonly target: string; readonly text: string }[],
  error: ScriptErrorData | null,
  usage: RunUsage,
  diagnostics: readonly Diagnostic[] = [],
  emitLines: readonly number[] = [],
): RunResult {
  // A Map, then Object.fromEntries: every target ('__proto__' and 'toString' included) becomes an own data property.
  const byTarget = new Map<string, string>();
  for (const { target, text } of whispers) {
    const previous = byTarget.get(target);
    byTarget.set(target, previous === undefined ? text : `${previous}\n${text}`);
  }
  return {
    ok: error === null,
    emits: [...emits],
    // One line per emit; 0 for any the run did not say (a custom runner).
    emitLines: emits.map((_, index) => emitLines[index] ?? 0),
    whispers: Object.fromEntries(byTarget),
    output: emits.map((text) => `${text}\n`).join(''),
    scratchpad: whispers.map(({ text }) => `${text}\n`).join(''),
    error,
    diagnostics,
    usage,
  };
}
