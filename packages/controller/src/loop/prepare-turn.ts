/**
 * Extract and prepare: find the envelope in the reply (tolerantly, with the
 * recovery recorded as lints), then parse and check the whole ACTIONS program
 * against the turn's policy-filtered catalogue BEFORE anything runs.
 */
import { extractEnvelope, isEnvelopeError } from '@askloop/envelope';
import type { HostToolCatalog } from '@askloop/tools';
import type { LoopInterpreter } from '../interpreter/loop-interpreter.ts';
import { sourceLineOf } from './system-error-output.ts';
import type { TurnFailure, TurnRecord } from './turn-record.ts';

/** What extract + prepare add to the record. */
export type PreparePatch = Pick<TurnRecord, 'lints' | 'diagnostics'> & Partial<Pick<TurnRecord, 'actions' | 'prepared' | 'failure'>>;

/** Extracts ACTIONS from `replyText` and prepares them. */
export async function prepareTurn(interpreter: LoopInterpreter, replyText: string, catalog: HostToolCatalog, allowAsk: boolean): Promise<PreparePatch> {
  let actions: string;
  let lints: TurnRecord['lints'];
  try {
    const extracted = extractEnvelope(replyText);
    actions = extracted.envelope.actions;
    lints = extracted.lints.map(({ code, message }) => ({ code, message }));
  } catch (error) {
    if (!isEnvelopeError(error)) throw error;
    const line = (error as { line?: number }).line;
    const failure: TurnFailure = {
      code: error.code,
      kind: 'envelope',
      message: error.message,
      ...(line === undefined ? {} : { line }),
      ...(sourceLineOf(replyText, line) === undefined ? {} : { sourceLine: sourceLineOf(replyText, line) as string }),
    };
    return { lints: [], diagnostics: [], failure };
  }
  const result = await interpreter.prepare(actions, { mode: 'agent', catalog, allowAsk });
  if (result.ok) return { lints, diagnostics: result.diagnostics, actions, prepared: result.prepared };
  const first = result.diagnostics[0];
  const kind = first === undefined ? 'check' : first.kind;
  const failure: TurnFailure = {
    code: first?.code ?? 'SCRIPT_INVALID_PROGRAM',
    // A static diagnostic is never a run-time error: what is not syntax or permission is a check failure.
    kind: kind === 'syntax' || kind === 'permission' ? kind : 'check',
    message: first?.message ?? 'the program failed its checks',
    ...(first === undefined ? {} : { line: first.line, column: first.column }),
    ...(sourceLineOf(actions, first?.line) === undefined ? {} : { sourceLine: sourceLineOf(actions, first?.line) as string }),
  };
  return { lints, diagnostics: result.diagnostics, actions, failure };
}
