/**
 * The end of a loop in a few lines: how it ended, turns and decisions,
 * tokens, cost and wall time, where the session is stored, and what to run
 * next when it paused or was cancelled (with the options the continuation
 * needs).
 */
import { isResumableHalt, type LoopResult } from '@askloop/controller';
import { formatCost, formatCount, formatDuration, oneLine } from './format-values.ts';
import { paintDecision } from './format-turn-parts.ts';
import type { TerminalColors } from './terminal-colors.ts';
import { terminalSafe } from './terminal-safe.ts';

/** The options a continuation needs, as shell words (` --db … --script …`), and whether `--db` is shown without its password. */
export interface SummaryContinueArgs {
  readonly text: string;
  readonly dbRedacted: boolean;
}

/** What {@link formatSummary} and {@link formatNextSteps} need besides the result. */
export interface SummaryOptions {
  readonly colors: TerminalColors;
  readonly width: number;
  /** The session's store, for the `stored in` line. */
  readonly dbPath?: string;
  /** False leaves out the next steps (the caller prints them with {@link formatNextSteps}). */
  readonly nextSteps?: boolean;
  /** Options the continuation commands need, appended to each of them. */
  readonly continueArgs?: SummaryContinueArgs;
  /** No reply had a cost from the model's prices (it has none): a cost of 0 is unknown, not free. */
  readonly costUnknown?: boolean;
}

/**
 * What to run next after a pause (`askloop approve|deny SID …`) or a Ctrl-C
 * (`askloop resume SID …`), as lines ending in a newline; empty otherwise.
 * The commands carry `continueArgs`, escaped for the terminal.
 */
export function formatNextSteps(result: LoopResult, options: Pick<SummaryOptions, 'colors' | 'continueArgs'>): string {
  const { colors } = options;
  const args = terminalSafe(options.continueArgs?.text ?? '');
  const lines: string[] = [];
  if (result.status === 'PAUSED') lines.push(`  ${colors.yellow(`askloop approve ${result.sid}${args}`)} or ${colors.yellow(`askloop deny ${result.sid}${args}`)} to go on`);
  if (result.status === 'HALT' && isResumableHalt(result.reason, result.failure)) {
    const from = result.reason === 'ERR_CANCELLED' ? 'the cancelled turn' : 'the turn whose model call failed (it asks the model again)';
    lines.push(`  ${colors.yellow(`askloop resume ${result.sid}${args}`)} to go on from ${from}`);
  }
  if (lines.length > 0 && options.continueArgs?.dbRedacted === true) lines.push(`  ${colors.dim('(the password of --db is not shown: pass the same --db as this run)')}`);
  return lines.map((line) => `${line}\n`).join('');
}

/** Formats the summary of `result`; `dbPath` names the session's store. */
export function formatSummary(result: LoopResult, options: SummaryOptions): string {
  const { colors, width } = options;
  const status = result.status === 'PAUSED' ? 'PAUSE' : result.status === 'RUNNING' ? 'CONTINUE' : result.status;
  const head = result.status === 'DONE' ? (result.result === null ? '' : oneLine(result.result, width - 8)) : terminalSafe(result.reason ?? '');
  const counts = new Map<string, number>();
  for (const entry of result.decisions) counts.set(entry.decision, (counts.get(entry.decision) ?? 0) + 1);
  const decisions = [...counts].map(([kind, count]) => `${kind} ${count}`).join(', ');
  const usage = result.usage;
  const facts = [
    // A turn held for approval is not counted until it runs: say which one waits rather than only "0 turns".
    `${result.turns} ${result.turns === 1 ? 'turn' : 'turns'}${result.reason === 'AWAITING_APPROVAL' ? ` (turn ${result.decisions.at(-1)?.turn ?? result.turns + 1} waits for approval)` : ''}`,
    decisions === '' ? 'no decisions' : `decisions ${decisions}`,
    `${formatCount(usage.inputTokens)} in + ${formatCount(usage.outputTokens)} out tokens`,
    `cost ${formatCost(usage.costUsd, options.costUnknown !== true)}`,
    `${formatDuration(usage.wallMs)} wall`,
  ];
  const lines = [
    '',
    `${paintDecision(status, colors)}${head === '' ? '' : ` ${head}`}`,
    `  ${facts.join(colors.dim(' · '))}`,
    `  session ${result.sid} ${colors.dim(options.dbPath === undefined ? '(not stored: memory store)' : `stored in ${options.dbPath}`)}`,
  ];
  const summary = `${lines.join('\n')}\n`;
  return options.nextSteps === false ? summary : summary + formatNextSteps(result, options);
}
