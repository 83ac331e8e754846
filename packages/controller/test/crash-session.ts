/**
 * The session the crash test runs in two hosts: the agent, and the turn-1
 * reply whose program writes once (`tool.memory.CAS`, recorded for
 * idempotence) and then spins while the memory key `/crash/stop` is unset
 * (a read: asked again on every run, so the resumed run can get past it).
 */
import type { AgentDefinition } from '../src/agent/agent-definition.ts';
import { envelope } from './test-plugin.ts';

/** The killed host's session lease: renewed every second while it lives, lapsed 3 s after it dies. */
export const CRASH_LEASE_MS = 3000;

/** The key the program writes exactly once. */
export const CURSOR_KEY = '/crash/cursor';
/** Set by the test before resuming, so the re-run turn stops spinning. */
export const STOP_KEY = '/crash/stop';

/** A worker with a turn quota large enough to spin until it is killed. */
export const CRASH_AGENT: AgentDefinition = {
  name: 'crash-worker',
  model: 'scripted:m',
  policy: { allow: ['tool.memory.*'], grants: ['memory:read:/crash/**', 'memory:write:/crash/**'] },
  quotas: { fuel: 1_000_000_000_000, wallMs: 600_000 },
  ceilings: { maxTurns: 4, fuel: 1_000_000_000_000, wallMs: 600_000 },
};

/** Turn 1: write once, then spin until STOP_KEY is set. */
export const crashTurnReply = envelope(
  [
    'command',
    `  set written = tool.memory.CAS("${CURSOR_KEY}", 0, "taken")`,
    `  set stop = tool.memory.Get("${STOP_KEY}")`,
    // One loop may run 100 000 times (loopIterations); nested, they spin for minutes.
    '  while stop[0] == nil',
    '    set spins = 0',
    '    while spins < 90000',
    '      set spins = spins + 1',
    '    endwhile',
    '  endwhile',
    '  emit "written at version " + written[1]',
    'endcommand',
  ].join('\n'),
);

/** Turn 2 (asked by the resuming host): done. */
export const finishReply = envelope(['command', '  emit "<<<LOOP:DONE>>> finished"', 'endcommand'].join('\n'));
