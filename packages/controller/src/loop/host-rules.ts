/**
 * What the host does with a reply, told to the model in its system text: the
 * facts of this agent's loop that the envelope rules and the primer leave
 * out. A model's-eye walkthrough (a reviewer playing the model, seeing only
 * what the host sends) found each one missing and costly: the form of a
 * reply (a reply without USERDATA is refused, while nothing said it needed
 * one), that a turn shows only the turn before it, which failures end the
 * session at once and which come back to be fixed, and the per-turn limits.
 * Every figure is this agent's own (its quotas, `repair`, `maxErrorStreak`),
 * so the text never promises what the loop will not do.
 */
import { DEFAULT_LIMITS } from '@askloop/interpreter';
import type { ResolvedAgentDefinition } from '../agent/agent-definition.ts';
import { FEEDBACK_MAX_BYTES } from './truncate-feedback.ts';

/** A whole number with thousands separators, in ASCII (the system text stays one byte a character). */
const count = (value: number): string => String(Math.round(value)).replace(/\B(?=(\d{3})+$)/g, ',');

/** `n` times, in words for 1 and 2. */
const times = (n: number): string => (n === 1 ? 'once' : n === 2 ? 'twice' : `${count(n)} times`);

/** The host's rules for `agent`, a few lines after the NeuroScript primer (short: every turn carries them). */
export function hostRulesText(agent: ResolvedAgentDefinition): string {
  const quotas = agent.quotas ?? {};
  const repair = agent.repair ?? 0;
  const errorStreak = agent.maxErrorStreak ?? 3;
  const oneTurn = agent.toolLoopPermitted === false;
  const seconds = (quotas.wallMs ?? DEFAULT_LIMITS.wallMs) / 1000;
  const checked = 'The whole program is checked before it runs: a syntax error, or a tool not listed or not allowed,';
  const lines = [
    'Host rules:',
    '- Reply with one envelope: START, USERDATA ({} will do), ACTIONS (your program), END.',
    oneTurn ? '- You have this one turn: its OUTPUT is your answer.' : "- Next turn you see only this turn's OUTPUT and SCRATCHPAD (none if it fails before it runs); whisper again what you still need.",
    repair > 0
      ? `- ${checked} a call refused while it runs, or running out of steps, time, tool calls or loop iterations, comes back in OUTPUT as SYSTEM_ERROR lines, ${times(repair)} in a row at most; one more ends the session.`
      : `- ${checked} ends the session; so does a call refused while it runs, or running out of steps, time, tool calls or loop iterations.`,
    oneTurn
      ? '- A run-time error (failed must, bad index, tool error) ends the session.'
      : `- A run-time error (failed must, bad index, tool error) comes back as a SYSTEM_ERROR line in OUTPUT; ${errorStreak === 1 ? 'one such turn ends' : `${count(errorStreak)} such turns in a row end`} the session.`,
    `- Per turn: ${count(quotas.fuel ?? DEFAULT_LIMITS.fuel)} steps, ${count(quotas.toolCalls ?? DEFAULT_LIMITS.toolCalls)} tool calls, ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s; ${count(DEFAULT_LIMITS.loopIterations)} iterations of one while or for each; OUTPUT over ${FEEDBACK_MAX_BYTES / 1024} KiB comes back cut.`,
  ];
  if (!oneTurn) {
    const same = `${count(agent.noProgressN ?? 3)} turns in a row with the same OUTPUT and SCRATCHPAD`;
    lines.push(agent.nudge === false ? `- ${same} end the session.` : `- ${same} get a warning; one more ends the session.`);
  }
  const grants = agent.policy?.grants ?? [];
  if (grants.length > 0) lines.push(`- Granted (the last part is the keys, paths or hosts covered): ${grants.join(', ')}.`);
  return lines.join('\n');
}
