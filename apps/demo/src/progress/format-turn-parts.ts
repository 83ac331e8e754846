/**
 * The lines one turn is made of — tool call, emit, whisper, diagnostic,
 * decision — formatted the same way live (`askloop run`) and afterwards
 * (`askloop show`). Every text that came from a model, a tool or a store is
 * made terminal-safe here.
 */
import { failureLine, withCodeOnce, type EarlierUnfinishedCall, type LoopDecision, type RecordedToolCall } from '@askloop/controller';
import type { Diagnostic } from '@askloop/interpreter';
import { compactJson, formatDuration } from './format-values.ts';
import type { TerminalColors } from './terminal-colors.ts';
import { terminalSafe } from './terminal-safe.ts';

/** The label column: every part line starts with two spaces and a label padded to this width. */
export const LABEL_WIDTH = 9;

/** `  label    text`, with continuation lines of a multi-line text indented under the text. */
export function labelled(label: string, text: string, colors: TerminalColors, paintLabel: (text: string) => string = colors.dim): string {
  const pad = ' '.repeat(LABEL_WIDTH - Math.min(label.length, LABEL_WIDTH - 1));
  const body = text.replace(/\n/g, `\n  ${' '.repeat(LABEL_WIDTH)}`);
  return `  ${paintLabel(label)}${body === '' ? '' : `${pad}${body}`}\n`;
}

/**
 * `tool.str.split("a b", " ") → ["a","b"] · 3 ms`, or the error code and message in red, or, in yellow, that the call
 * was still out when the run ended and whether it may have acted, with the tool host's code if it gave up on it.
 */
export function formatToolCall(call: RecordedToolCall, colors: TerminalColors, width: number): string {
  return labelled('tool', toolCallText(call, colors, width), colors);
}

/**
 * A call still out when an earlier run of the turn ended (the record's `earlierUnfinished`: `resume` ran the turn
 * again), as {@link formatToolCall} writes a call, under its own label and with the run it came from:
 * `earlier  run 1 of this turn: tool.memory.CAS("k", 1) ⋯ unfinished: a write tool, it may have acted · 12 ms`.
 */
export function formatEarlierUnfinishedCall(call: EarlierUnfinishedCall, colors: TerminalColors, width: number): string {
  return labelled('earlier', `${colors.yellow(`run ${call.run} of this turn:`)} ${toolCallText(call, colors, width)}`, colors);
}

/** A call's name, arguments, outcome and time, as both lists write it. */
function toolCallText(call: RecordedToolCall, colors: TerminalColors, width: number): string {
  const args = call.args.map((arg) => compactJson(arg, Math.max(12, Math.floor(width / 3)))).join(', ');
  const outcome = call.unfinished !== undefined
    ? colors.yellow(`⋯ unfinished${call.error === undefined ? '' : ` (${terminalSafe(call.error.code)})`}: ${unfinishedWords(call.unfinished.effect)}`)
    : call.error !== undefined
    ? colors.red(`✗ ${terminalSafe(call.error.code)}: ${compactJson(call.error.message, width).slice(1, -1)}`)
    : `→ ${compactJson(call.result ?? null, Math.max(16, Math.floor(width / 2)))}`;
  return `${colors.cyan(terminalSafe(call.displayName ?? call.name))}(${args}) ${outcome} ${colors.dim(`· ${formatDuration(call.durationMs)}`)}`;
}

/** What a call still out when its run ended may have done, in a few words (the record's `note` says it in full). */
function unfinishedWords(effect: string | undefined): string {
  if (effect === 'read') return 'a read-only tool, it should have changed nothing';
  return `${effect === undefined ? 'its effect unknown' : `${effect === 'external' ? 'an' : 'a'} ${terminalSafe(effect)} tool`}, it may have acted`;
}

/** One emitted line (an emit's continuation lines are indented). */
export function formatEmit(text: string, colors: TerminalColors): string {
  return labelled('emit', terminalSafe(text), colors);
}

/** A whisper, dimmed: it goes to the scratchpad, not the output. */
export function formatWhisper(target: string, text: string, colors: TerminalColors): string {
  return colors.dim(labelled('whisper', `${terminalSafe(target)}: ${terminalSafe(text)}`, colors, (label) => label));
}

/** `✗ 3:5 SCRIPT_TOOL_DENIED message` (warnings in yellow). */
export function formatDiagnostic(diagnostic: Diagnostic, colors: TerminalColors): string {
  const paint = diagnostic.severity === 'error' ? colors.red : colors.yellow;
  const mark = diagnostic.severity === 'error' ? '✗' : '!';
  return labelled('check', paint(`${mark} ${diagnostic.line}:${diagnostic.column} ${terminalSafe(diagnostic.code)} ${terminalSafe(diagnostic.message)}`), colors);
}

/** The decision's word in its colour: DONE green, HALT red, PAUSE yellow, CONTINUE blue. */
export function paintDecision(kind: LoopDecision['kind'], colors: TerminalColors): string {
  const paint = { CONTINUE: colors.blue, DONE: colors.green, HALT: colors.red, PAUSE: colors.yellow }[kind];
  return colors.bold(paint(kind));
}

/** The reason part of a decision: the halt or pause reason with its message, the next turn's kind, or the DONE result. */
export function decisionReason(decision: LoopDecision): string {
  switch (decision.kind) {
    case 'CONTINUE':
      return decision.next === undefined ? '' : `next: ${decision.next} turn`;
    case 'DONE':
      return decision.result === null ? '' : `result: ${decision.result}`;
    case 'HALT':
    case 'PAUSE':
      return decision.message === '' ? decision.reason : `${decision.reason}: ${codeOnce(decision.message)}`;
  }
}

/**
 * A failure as one line, its code once, in the controller's words (`failureLine`): a provider's message names its code
 * already (`[acme:m] PROVIDER_SERVER: …`), so it is shown as it is; any other gets `CODE` (and `where`, a position)
 * before it.
 */
export function failureText(failure: { readonly code: string; readonly message: string }, where = ''): string {
  return where === '' ? failureLine(failure) : `${failure.code}${where}: ${failure.message}`;
}

/**
 * A halt's message was `CODE: <the failure's message>` before the controller said a provider's code once, so a
 * session recorded then reads `PROVIDER_SERVER: [acme:m] PROVIDER_SERVER: HTTP 500 …`: shown with the code once, as
 * replay reads it (`withCodeOnce`). The stored decision keeps its text (replay compares it).
 */
export const codeOnce = withCodeOnce;
