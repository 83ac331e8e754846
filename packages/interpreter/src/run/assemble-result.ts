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
): RunResult {
  const byTarget: Record<string, string> = {};
  for (const { target, text } of whispers) byTarget[target] = Object.hasOwn(byTarget, target) ? `${byTarget[target]}\n${text}` : text;
  return {
    ok: error === null,
    emits: [...emits],
    whispers: byTarget,
    output: emits.map((text) => `${text}\n`).join(''),
    scratchpad: whispers.map(({ text }) => `${text}\n`).join(''),
    error,
    diagnostics,
    usage,
  };
}
