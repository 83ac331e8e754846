/**
 * Extract and prepare: find the envelope in the reply (tolerantly, with the
 * recovery recorded as lints), then parse and check the whole ACTIONS program
 * against the turn's policy-filtered catalogue BEFORE anything runs.
 */
import { extractEnvelope, isEnvelopeError } from '@askloop/envelope';
import { staticValue, walk, type Diagnostic, type Program } from '@askloop/interpreter';
import type { HostToolCatalog } from '@askloop/tools';
import { ASK_NOT_ALLOWED } from '../agent/may-ask.ts';
import type { LoopInterpreter } from '../interpreter/loop-interpreter.ts';
import { PROGRAM_GLOBALS } from './program-globals.ts';
import { checkErrors, checkFailureOf, sourceLineOf } from './system-error-output.ts';
import type { TurnFailure, TurnRecord } from './turn-record.ts';

/** What extract + prepare add to the record. */
export type PreparePatch = Pick<TurnRecord, 'lints' | 'diagnostics'> & Partial<Pick<TurnRecord, 'actions' | 'prepared' | 'failure'>>;

/**
 * Extracts ACTIONS from `replyText` and prepares them. `mayAsk` (given when
 * the turn may `ask`) refuses an `ask` of an agent named by a literal before
 * anything runs; a computed name is checked when the statement runs. Without
 * it, `noAsk` (when given) is why the turn may not `ask`, in place of the
 * check's own words (which say the agent lists no one to ask).
 */
export async function prepareTurn(
  interpreter: LoopInterpreter,
  replyText: string,
  catalog: HostToolCatalog,
  mayAsk?: (agent: string) => string | undefined,
  noAsk?: string,
): Promise<PreparePatch> {
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
  const result = await interpreter.prepare(actions, { mode: 'agent', catalog, allowAsk: mayAsk !== undefined, globalNames: PROGRAM_GLOBALS });
  const refused = result.ok && mayAsk !== undefined ? refusedAsks(result.prepared.program, mayAsk) : [];
  if (result.ok && refused.length === 0) return { lints, diagnostics: result.diagnostics, actions, prepared: result.prepared };
  const checked = noAsk === undefined ? result.diagnostics : result.diagnostics.map((diagnostic) => (diagnostic.code === ASK_NOT_ALLOWED ? { ...diagnostic, message: noAsk } : diagnostic));
  const diagnostics = result.ok ? [...refused, ...checked] : checked;
  // The first ERROR in source order: a warning before it did not stop the program.
  const first = checkErrors(diagnostics)[0];
  const failure: TurnFailure = first === undefined ? { code: 'SCRIPT_INVALID_PROGRAM', kind: 'check', message: 'the program failed its checks' } : checkFailureOf(first, actions);
  return { lints, diagnostics, actions, failure };
}

/** A diagnostic for each `ask` of a literal agent name that `mayAsk` refuses. */
function refusedAsks(program: Program, mayAsk: (agent: string) => string | undefined): Diagnostic[] {
  const refused: Diagnostic[] = [];
  walk(program, (node) => {
    if (node.type !== 'AskStatement') return;
    const agent = staticValue(node.agent);
    const why = typeof agent === 'string' ? mayAsk(agent) : undefined;
    if (why !== undefined) refused.push({ code: ASK_NOT_ALLOWED, severity: 'error', kind: 'permission', message: why, line: node.line, column: node.column });
  });
  return refused;
}
