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

/** The host's rules for `agent`, a few lines after the NeuroScript primer. */
export function hostRulesText(agent: ResolvedAgentDefinition): string {
  const quotas = agent.quotas ?? {};
  const repair = agent.repair ?? 0;
  const errorStreak = agent.maxErrorStreak ?? 3;
  const oneTurn = agent.toolLoopPermitted === false;
  const seconds = (quotas.wallMs ?? DEFAULT_LIMITS.wallMs) / 1000;
  const stopping = 'A syntax error, a call of a tool that is not listed below or not allowed, or a turn that runs out of its steps or time';
  const lines = [
    'How this host takes your reply:',
    '- Answer with one envelope: START, USERDATA ({} will do: the host keeps its own), ACTIONS (your program), END.',
    oneTurn
      ? '- You have this one turn: its OUTPUT is your answer.'
      : '- The next turn shows you only this turn\'s OUTPUT and SCRATCHPAD: whisper again what you will still need.',
    repair > 0
      ? `- Your whole program is checked before any of it runs. ${stopping} comes back as a SYSTEM_ERROR line in OUTPUT, ${times(repair)} in a row at most; one more ends the session.`
      : `- Your whole program is checked before any of it runs. ${stopping} ends the session: check the program before you answer.`,
    oneTurn
      ? '- An error while it runs (a failed must, a bad index, a tool\'s error) ends the session.'
      : `- An error while it runs (a failed must, a bad index, a tool's error) comes back as a SYSTEM_ERROR line in OUTPUT; ${errorStreak === 1 ? 'one such turn ends' : `${count(errorStreak)} such turns in a row end`} the session.`,
    `- Each turn: at most ${count(quotas.fuel ?? DEFAULT_LIMITS.fuel)} evaluation steps, ${count(quotas.toolCalls ?? DEFAULT_LIMITS.toolCalls)} tool calls and ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s, ${count(DEFAULT_LIMITS.loopIterations)} rounds of one loop; OUTPUT over ${FEEDBACK_MAX_BYTES / 1024} KiB comes back with its middle cut.`,
  ];
  const grants = agent.policy?.grants ?? [];
  if (grants.length > 0) lines.push(`- Capabilities granted (the last part of each is the keys, paths or hosts it covers; a call outside them is refused): ${grants.join(', ')}.`);
  return lines.join('\n');
}
