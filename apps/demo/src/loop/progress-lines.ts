/**
 * What `askloop run`, `resume`, `approve` and `deny` print while a loop runs
 * (without `--json`): one line per decision on standard error, so standard
 * output holds only the final result.
 */
import type { LoopEventListener } from '@askloop/controller';
import type { CommandIo } from '../io.ts';
import { oneLine } from '../progress/format-values.ts';
import { terminalSafe } from '../progress/terminal-safe.ts';

/** What a step waiting for its session says: otherwise a host that died would mean seconds of silence. */
export function waitingText(sid: string, behind: 'another call' | 'another host'): string {
  return behind === 'another host'
    ? `waiting: another host holds session ${sid} (a host that died holds it until its lease runs out: 15 s for askloop run or resume, --lease-ms, 30 s by default, for askloop worker)`
    : `waiting: another call here is running a turn of session ${sid}`;
}

/**
 * A listener printing each turn's refusal (if any), a wait for the session, and each decision as one line.
 * The lines of a child session an `ask` started carry its agent and id, so they do not read as the parent's turns.
 */
export function progressLines(io: CommandIo): LoopEventListener {
  const children = new Map<string, string>();
  return (event) => {
    if (event.type === 'loop-start' && event.parentSid !== undefined) children.set(event.sid, `[ask ${terminalSafe(event.agent)} ${event.sid.slice(0, 8)}] `);
    const child = children.get(event.sid) ?? '';
    const stderr = (line: string): void => io.stderr(line.replace(/^ {2}/, `  ${child}`));
    if (event.type === 'prepared' && !event.ok) {
      const first = event.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
      // A diagnostic can quote the program (model text): escaped, as everywhere model text meets a terminal, and on one
      // line, so that a newline in a path it asked for cannot print a line that reads as the CLI's own (a `grant:`).
      if (first !== undefined) stderr(`  turn ${event.turnIndex}: refused before running: ${oneLine(`${first.code} at ${first.line}:${first.column}: ${first.message}`, Number.POSITIVE_INFINITY)}\n`);
    } else if (event.type === 'waiting') {
      stderr(`  ${waitingText(event.sid, event.behind)}\n`);
    } else if (event.type === 'decision') {
      const { decision } = event;
      // A reply with no usable envelope never reaches 'prepared': say why before a repair turn (a HALT's summary says it).
      const failure = event.record.failure;
      if (failure?.kind === 'envelope' && decision.kind === 'CONTINUE') {
        stderr(`  turn ${event.turnIndex}: reply refused: ${oneLine(`${failure.code}: ${failure.message}`, Number.POSITIVE_INFINITY)}\n`);
      }
      const detail = decision.kind === 'HALT' || decision.kind === 'PAUSE' ? ` ${decision.reason}` : decision.kind === 'CONTINUE' && decision.next !== undefined ? ` (next: ${decision.next} turn)` : '';
      stderr(`  turn ${event.turnIndex}: ${decision.kind}${oneLine(detail, Number.POSITIVE_INFINITY)}\n`);
    }
  };
}
