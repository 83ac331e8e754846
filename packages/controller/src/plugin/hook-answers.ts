/**
 * The answers of the hooks whose answer steers the loop, checked before they
 * are used: `programChecked` (approve, hold for a person, deny) and `decide`
 * (a loop decision). A plain-JavaScript plugin's `'deny'`, `{ kind: 'Deny' }`
 * or `'stop'` used to pass as no answer or as a half-decision: a program its
 * plugin meant to stop ran, or a session was stored in no state at all. Such
 * an answer fails closed, as a throwing hook does (`LOOP_PLUGIN_ERROR`).
 */
import { HALT_REASONS } from '../decide/halt-reason.ts';

const TURN_KINDS_NEXT: ReadonlySet<unknown> = new Set(['repair', 'nudge', 'answer-now']);

/** A short view of a value for a message. */
function shown(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  text ??= String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasMessage = (answer: Record<string, unknown>): boolean => typeof answer['message'] === 'string';

/** What is wrong with a `programChecked` answer (undefined is no answer, and fine), or undefined. */
export function approvalProblem(answer: unknown): string | undefined {
  const expected = "expected undefined, { kind: 'approve' }, { kind: 'require-approval', message } or { kind: 'deny', message }";
  if (!isRecord(answer)) return `${expected}, got ${shown(answer)}`;
  const { kind } = answer;
  if (kind === 'approve') return undefined;
  if (kind === 'require-approval' || kind === 'deny') return hasMessage(answer) ? undefined : `{ kind: '${kind}' } needs a message (a string) saying why, got ${shown(answer)}`;
  return `${expected}, got ${shown(answer)}`;
}

/** What is wrong with a `decide` answer (undefined is no answer, and fine), or undefined. */
export function decisionProblem(answer: unknown): string | undefined {
  // No PAUSE: a pause is the approval gate's (a held program), and a turn a hook paused would wait for an approval of nothing.
  const expected = "expected undefined or a decision: { kind: 'CONTINUE' }, { kind: 'DONE', result } or { kind: 'HALT', reason, message }";
  if (!isRecord(answer)) return `${expected}, got ${shown(answer)}`;
  switch (answer['kind']) {
    case 'CONTINUE':
      return answer['next'] === undefined || TURN_KINDS_NEXT.has(answer['next']) ? undefined : `CONTINUE's next is 'repair', 'nudge' or 'answer-now' when given, got ${shown(answer['next'])}`;
    case 'DONE':
      return answer['result'] === null || typeof answer['result'] === 'string' ? undefined : `DONE needs a result, a string or null, got ${shown(answer['result'])}`;
    case 'HALT':
      if (typeof answer['reason'] !== 'string' || !Object.hasOwn(HALT_REASONS, answer['reason'])) {
        return `HALT needs a reason of HALT_REASONS (${Object.keys(HALT_REASONS).join(', ')}), got ${shown(answer['reason'])}`;
      }
      return hasMessage(answer) ? undefined : `HALT needs a message (a string) saying why, got ${shown(answer['message'])}`;
    default:
      return `${expected}, got ${shown(answer)}`;
  }
}
