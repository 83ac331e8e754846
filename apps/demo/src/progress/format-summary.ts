/**
 * The end of a loop in a few lines: how it ended, turns and decisions,
 * tokens, cost and wall time, where the session is stored, and what to run
 * next when it paused or was cancelled.
 */
import type { LoopResult } from '@askloop/controller';
import { formatCost, formatCount, formatDuration, oneLine } from './format-values.ts';
import { paintDecision } from './format-turn-parts.ts';
import type { TerminalColors } from './terminal-colors.ts';

/** Formats the summary of `result`; `dbPath` names the session's store. */
export function formatSummary(result: LoopResult, options: { colors: TerminalColors; width: number; dbPath?: string; nextSteps?: boolean }): string {
  const { colors, width } = options;
  const status = result.status === 'PAUSED' ? 'PAUSE' : result.status === 'RUNNING' ? 'CONTINUE' : result.status;
  const head = result.status === 'DONE' ? (result.result === null ? '' : oneLine(result.result, width - 8)) : (result.reason ?? '');
  const counts = new Map<string, number>();
  for (const entry of result.decisions) counts.set(entry.decision, (counts.get(entry.decision) ?? 0) + 1);
  const decisions = [...counts].map(([kind, count]) => `${kind} ${count}`).join(', ');
  const usage = result.usage;
  const facts = [
    `${result.turns} ${result.turns === 1 ? 'turn' : 'turns'}`,
    decisions === '' ? 'no decisions' : `decisions ${decisions}`,
    `${formatCount(usage.inputTokens)} in + ${formatCount(usage.outputTokens)} out tokens`,
    `cost ${formatCost(usage.costUsd)}`,
    `${formatDuration(usage.wallMs)} wall`,
  ];
  const lines = [
    '',
    `${paintDecision(status, colors)}${head === '' ? '' : ` ${head}`}`,
    `  ${facts.join(colors.dim(' · '))}`,
    `  session ${result.sid} ${colors.dim(options.dbPath === undefined ? '(not stored: memory store)' : `stored in ${options.dbPath}`)}`,
  ];
  if (options.nextSteps === false) return `${lines.join('\n')}\n`;
  if (result.status === 'PAUSED') lines.push(`  ${colors.yellow(`askloop approve ${result.sid}`)} or ${colors.yellow(`askloop deny ${result.sid}`)} to go on`);
  if (result.status === 'HALT' && result.reason === 'ERR_CANCELLED') lines.push(`  ${colors.yellow(`askloop resume ${result.sid}`)} to go on from the cancelled turn`);
  return `${lines.join('\n')}\n`;
}
