/**
 * One stored turn as `askloop show` prints it: the system text (its size, or
 * with `--full` what is new in it), the envelope sent, the reply,
 * the program (highlighted, numbered), the check's diagnostics, tool calls
 * (after those earlier runs of the turn left unfinished, marked so),
 * emits, whispers, the failure if any, and the decision — with the same
 * line formats as live progress.
 */
import type { InterruptedRun, TurnRecord } from '@askloop/controller';
import { formatProgram } from '../progress/format-program.ts';
import { decisionReason, failureText, formatDiagnostic, formatEarlierUnfinishedCall, formatEmit, formatToolCall, formatWhisper, labelled, paintDecision } from '../progress/format-turn-parts.ts';
import { formatCost, formatCount, formatCounted, formatDuration, oneLine } from '../progress/format-values.ts';
import type { TerminalColors } from '../progress/terminal-colors.ts';
import { terminalSafe } from '../progress/terminal-safe.ts';
import { formatSystemText, type SharedSystemShown } from './format-system-text.ts';
import { screenShellWord } from '../loop/screen-shell-word.ts';
import { textBlock } from './text-block.ts';

/** The line of a run of the turn that stopped mid-turn (the record's `interrupted`). */
function interruptedText(run: InterruptedRun): string {
  const at = terminalSafe(run.at);
  return run.phase === 'executing'
    ? `a run stopped mid-program (its host stopped, lost the session, or its step failed); the program ran again from its start at ${at}: a call with effects outside the store may have acted once per run`
    : `a run stopped before its program started (its host stopped, lost the session, or its step failed); continued at ${at}`;
}

/** How many of a turn's tool calls `show` lists without `--full`. */
const MAX_CALLS_SHOWN = 20;

/**
 * Formats `record`; `full` prints the system text (past the shared part `system` printed before it), envelopes,
 * replies, tool-call lists and each call's arguments, result and error whole.
 */
export function formatStoredTurn(record: TurnRecord, options: { colors: TerminalColors; width: number; full: boolean; system?: SharedSystemShown | undefined }): string {
  const { colors, width } = options;
  const maxLines = options.full ? Number.POSITIVE_INFINITY : 12;
  const reruns = record.reruns ?? 0;
  // A turn resume reopened after a HALT (cancelled, or its model call failed): its earlier runs' time is in the total.
  const rerun = reruns === 0 ? '' : colors.yellow(` (run again${reruns === 1 ? '' : ` ×${reruns}`} by resume)`);
  let out = `\n${colors.bold(`turn ${record.turnIndex}`)}${record.kind === 'normal' ? '' : colors.yellow(` (${record.kind})`)}${rerun} ${colors.dim(`· ${record.startedAt} · phase ${record.phase}`)}\n`;
  // What the model was told, sent before the envelope.
  out += formatSystemText(record, options.system, options);
  out += labelled('envelope', colors.dim(`${formatCount(record.envelope.length)} chars sent`), colors) + textBlock(record.envelope, colors, maxLines);
  if (record.reply !== undefined) {
    const reply = record.reply;
    const cost = reply.costUsd === undefined ? '' : ` · ${formatCost(reply.costUsd)}`;
    out += labelled('reply', `${terminalSafe(reply.provider)}:${terminalSafe(reply.model)} · ${formatCount(reply.inputTokens)} in → ${formatCount(reply.outputTokens)} out tokens · ${formatDuration(reply.latencyMs)}${cost} · ${terminalSafe(reply.finishReason)}`, colors);
    out += textBlock(reply.text, colors, maxLines);
  }
  // Cut to the terminal's width unless --full, which promises everything.
  for (const lint of record.lints) out += labelled('recovered', colors.yellow(`${terminalSafe(lint.code)}: ${oneLine(lint.message, options.full ? Number.POSITIVE_INFINITY : width - 30)}`), colors);
  if (record.actions !== undefined && record.actions.trim() !== '') out += labelled('program', '', colors) + formatProgram(record.actions, colors);
  for (const diagnostic of record.diagnostics) out += formatDiagnostic(diagnostic, colors);
  if (record.approval !== undefined) out += labelled('approval', `${record.approval.state}: ${terminalSafe(record.approval.message)}${record.approval.note === undefined ? '' : ` (note: ${terminalSafe(record.approval.note)})`}`, colors);
  // Runs of the turn that stopped mid-turn with nothing of their end saved (a host killed, a lease taken over): their
  // calls are not in the record, and from `executing` what they did outside the store may have happened once per run.
  // The record lists the latest of them (MAX_INTERRUPTED_KEPT) and counts the older ones.
  const dropped = record.interruptedDropped ?? 0;
  if (dropped > 0) out += labelled('interrupted', colors.yellow(`${formatCount(dropped)} earlier ${dropped === 1 ? 'run' : 'runs'} stopped mid-turn too (the record lists the latest ${formatCount(record.interrupted?.length ?? 0)})`), colors);
  for (const run of record.interrupted ?? []) out += labelled('interrupted', colors.yellow(interruptedText(run)), colors);
  // Calls still out when an earlier run of the turn ended (resume ran it again): before this run's, apart, with their run.
  // A call's arguments and result cut to the width, unless --full: the viewer sends to it for what its page cut.
  const callWidth = options.full ? Number.POSITIVE_INFINITY : width - 20;
  for (const call of record.earlierUnfinished ?? []) out += formatEarlierUnfinishedCall(call, colors, callWidth);
  // A loop of calls can make thousands: the first ones, then how many more, unless --full (as for long text).
  const shownCalls = options.full ? record.toolCalls : record.toolCalls.slice(0, MAX_CALLS_SHOWN);
  for (const call of shownCalls) out += formatToolCall(call, colors, callWidth);
  if (shownCalls.length < record.toolCalls.length) out += `    ${colors.dim(`… ${formatCounted(record.toolCalls.length - shownCalls.length, 'more tool call')} (--full shows everything)`)}\n`;
  for (const emit of record.emits) out += formatEmit(emit, colors);
  for (const whisper of record.whispers) out += formatWhisper(whisper.target, whisper.text, colors);
  if (record.failure !== undefined) {
    const failure = record.failure;
    const where = failure.line === undefined ? '' : ` at ${failure.line}:${failure.column ?? 1}`;
    // Its code once, as the run's cause line says it.
    out += labelled('failure', colors.red(terminalSafe(failureText(failure, where))), colors);
    if (failure.sourceLine !== undefined) out += `    ${colors.dim(`> ${terminalSafe(failure.sourceLine)}`)}\n`;
    // A denial for want of a grant: the grant to add, from the record's data, quoted as a shell word (as the run's
    // `grant:` line gives it); a record from before the field was kept has its message alone, which says it.
    // Read as a damaged store may hold it: a grant without its text prints no line, rather than failing the command.
    const grant = failure.grant as { capability?: unknown; code?: unknown } | null | undefined;
    if (typeof grant?.capability === 'string') out += labelled('grant', `${screenShellWord(grant.capability)} ${colors.dim(`(${terminalSafe(String(grant.code))}; only the operator can add it)`)}`, colors);
  }
  const usage = record.usage;
  out += labelled('usage', colors.dim(`fuel ${formatCount(usage.fuel)} · ${formatCounted(usage.toolCalls, 'tool call')} · ${formatCount(usage.inputTokens + usage.outputTokens)} tokens · ${formatDuration(record.timings.total ?? 0)}${record.timings.earlier === undefined ? '' : ` (earlier runs ${formatDuration(record.timings.earlier)})`}`), colors);
  if (record.decision !== undefined) {
    const reason = decisionReason(record.decision);
    out += labelled('decision', `${paintDecision(record.decision.kind, colors)}${reason === '' ? '' : ` ${terminalSafe(reason)}`}`, colors);
  } else out += labelled('decision', colors.yellow(`none yet (stopped in phase ${record.phase}; askloop resume finishes it)`), colors);
  return out;
}
