/**
 * The options each public call of the controller takes, checked where they
 * are given. A JavaScript caller's `run({ agnt: 'a', … })`, `maxTurns: 3`
 * (an agent's ceiling, not a call's option) or `onEvent: 5` used to be
 * ignored, or to fail far from the mistake ("invalid agent definition:
 * (top level): expected a map, got undefined").
 */
import { closestOption } from '../closest-option.ts';
import { describeValue as described } from '../describe-value.ts';

/** The public calls that take options. */
export type CallName = 'run' | 'create' | 'step' | 'resume' | 'approve' | 'deny';

const OPTIONS: Readonly<Record<CallName, readonly string[]>> = {
  run: ['agent', 'task', 'sid', 'signal', 'onEvent'],
  create: ['agent', 'task', 'sid', 'signal', 'onEvent'],
  // `note` is in the ContinueOptions every continuation takes: accepted here too (only approve and deny record it).
  step: ['signal', 'onEvent', 'note'],
  resume: ['signal', 'onEvent', 'note'],
  approve: ['signal', 'onEvent', 'note'],
  deny: ['signal', 'onEvent', 'note'],
};

/** Where an option that belongs elsewhere goes. */
const ELSEWHERE: Readonly<Record<string, string>> = {
  maxTurns: "an agent's ceilings.maxTurns",
  ceilings: "the agent's definition",
  policy: "the agent's definition",
  model: "the agent's definition",
  quotas: "the agent's definition",
};


/** What is wrong with the options of `what` (an unknown option, or one of the wrong type), or undefined. */
export function callOptionsProblem(what: CallName, given: unknown): string | undefined {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return `the options must be an object, got ${given === null ? 'null' : Array.isArray(given) ? 'a list' : typeof given}`;
  const known = OPTIONS[what];
  for (const [name, value] of Object.entries(given)) {
    // An option spread in as undefined (`{ ...options, note: undefined }`) says nothing: not a mistake.
    if (known.includes(name) || value === undefined) continue;
    if (Object.hasOwn(ELSEWHERE, name)) return `'${name}' is not an option of the call: it belongs in ${ELSEWHERE[name]} (the options: ${known.join(', ')})`;
    const closest = closestOption(name, known, 2);
    return `there is no option '${name}'${closest === undefined ? '' : `; did you mean '${closest}'?`} (the options: ${known.join(', ')})`;
  }
  const options = given as Record<string, unknown>;
  if (options['onEvent'] !== undefined && typeof options['onEvent'] !== 'function') return `onEvent must be a function, got ${described(options['onEvent'])}`;
  if (options['note'] !== undefined && typeof options['note'] !== 'string') return `note must be text, got ${described(options['note'])}`;
  return undefined;
}
