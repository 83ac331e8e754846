/**
 * Live progress of a loop on a terminal (or a log): a `LoopEvent` listener
 * that prints a header per turn, a spinner while the model streams its reply
 * (motion only; stopped at the reply's END line, as the call may go on a
 * moment after it), the ACTIONS program highlighted and numbered, tool calls,
 * emits and whispers as they happen, and the decision with its reason,
 * latency, tokens and what is left of the budget; `finish` prints the
 * summary. It only writes: it never changes the loop.
 */
import type { LoopCeilings, LoopEvent, LoopEventListener, LoopResult } from '@askloop/controller';
import { markerLine } from '@askloop/envelope';
import yoctoSpinner from 'yocto-spinner';
import type { Writable } from 'node:stream';
import { formatProgram } from './format-program.ts';
import { decisionReason, formatDiagnostic, formatEmit, formatToolCall, formatWhisper, labelled, paintDecision } from './format-turn-parts.ts';
import { formatCount, formatDuration, oneLine } from './format-values.ts';
import { formatSummary } from './format-summary.ts';
import { terminalColors } from './terminal-colors.ts';
import { waitingText } from '../loop/progress-lines.ts';
import { terminalSafe } from './terminal-safe.ts';

/** Where progress goes: anything with `write(text)` (a TTY stream for motion). */
export interface ProgressStream {
  write(text: string): unknown;
  /** Terminal width, when known (lines are cut to it). */
  readonly columns?: number;
}

/** Options of {@link createProgressRenderer}. */
export interface ProgressRendererOptions {
  readonly stream: ProgressStream;
  /** Colour codes (decide with `shouldUseColor`: a TTY without `NO_COLOR`). */
  readonly color: boolean;
  /** A spinner redrawn in place while the model streams (decide with `shouldUseMotion`; needs `stream` to be a TTY stream). */
  readonly motion: boolean;
  /** The agent's loop ceilings, to show what is left after each turn (turns, tokens, cost, tool calls). */
  readonly ceilings?: LoopCeilings;
  /** Line width when the stream does not say (default 100). */
  readonly width?: number;
  /** Print the turns' lines (default true); false keeps only the spinner and the summary, for a caller that narrates each turn itself (`askloop demo`). */
  readonly turns?: boolean;
  /** Redacts the reply as it streams into the spinner line (`createStreamRedactor`): a key split across deltas is whole only in the line. */
  readonly redactStream?: (text: string) => string;
}

/** What {@link finish} needs besides the result. */
export interface ProgressFinishOptions {
  /** Where the session is stored (the SQLite file), for the last line; omit for a memory store. */
  readonly dbPath?: string;
  /** The commands to go on after a pause or a cancel (default true; false when the caller prints its own). */
  readonly nextSteps?: boolean;
}

/** The renderer: pass `onEvent` to `loop.run`/`resume`/`approve`, then call `finish` (or `close` on a failure). */
export interface ProgressRenderer {
  readonly onEvent: LoopEventListener;
  /** Stops the spinner and prints the summary of the loop. */
  finish(result: LoopResult, options?: ProgressFinishOptions): void;
  /** Stops the spinner without a summary (the loop failed with an error, or was interrupted). Safe to call twice. */
  close(): void;
}

type TurnUsage = Extract<LoopEvent, { type: 'decision' }>['record']['usage'];

interface Totals {
  tokens: number;
  costUsd: number;
  toolCalls: number;
  fuel: number;
}

/** Builds a renderer writing to `options.stream`. */
export function createProgressRenderer(options: ProgressRendererOptions): ProgressRenderer {
  const colors = terminalColors(options.color);
  // A pty may report no width (0): never cut to less than a readable line.
  const width = Math.max(80, options.stream.columns || (options.width ?? 100));
  const cut = (room: number) => Math.max(24, width - room);
  const write = (text: string) => {
    options.stream.write(text);
  };
  const totals: Totals = { tokens: 0, costUsd: 0, toolCalls: 0, fuel: 0 };
  /** The usage each turn's last decision carried, so a turn decided twice counts once. */
  const counted = new Map<string, TurnUsage>();
  let spinner: ReturnType<typeof yoctoSpinner> | undefined;
  let streamed = { turn: 0, chars: 0, tail: '', line: '' };
  // Codes the check already showed this turn, so the decision does not repeat them as the turn's failure.
  let shownCodes = new Set<string>();
  /** The turn whose header was printed last (`sid turnIndex`): a turn continued by resume or approve has no turn-start. */
  let headerShown: string | undefined;
  // Whether a reply of this run had a cost the model's prices gave: none of them did and the cost reads "unknown", not "$0".
  const replies = { seen: false, priced: false };
  const endLine = markerLine('END');

  // A second Ctrl-C exits at once (process.exit): stop the spinner then too, so the terminal gets its cursor back.
  const stopOnExit = () => spinner?.stop();
  const stopSpinner = () => {
    if (spinner === undefined) return;
    spinner.stop();
    spinner = undefined;
    process.off('exit', stopOnExit);
  };
  const spinnerText = () => {
    const line = streamed.line.trim() === '' ? streamed.tail : streamed.line;
    const shown = options.redactStream === undefined ? line : options.redactStream(line);
    return `turn ${streamed.turn} · model thinking · ${formatCount(streamed.chars)} chars${shown.trim() === '' ? '' : ` · ${colors.dim(oneLine(shown.trim(), cut(45)))}`}`;
  };

  /** What is left of the loop's ceilings after `turnIndex` turns, as `3 turns, 12,000 tokens left`. */
  const remaining = (turnIndex: number): string => {
    const ceilings = options.ceilings;
    if (ceilings === undefined) return '';
    const parts: string[] = [];
    if (ceilings.maxTurns !== undefined) parts.push(`${Math.max(0, ceilings.maxTurns - turnIndex)} turns`);
    if (ceilings.tokens !== undefined) parts.push(`${formatCount(Math.max(0, ceilings.tokens - totals.tokens))} tokens`);
    if (ceilings.costUsd !== undefined) parts.push(`$${Math.max(0, ceilings.costUsd - totals.costUsd).toFixed(4)}`);
    if (ceilings.toolCalls !== undefined) parts.push(`${formatCount(Math.max(0, ceilings.toolCalls - totals.toolCalls))} tool calls`);
    if (ceilings.fuel !== undefined) parts.push(`${formatCount(Math.max(0, ceilings.fuel - totals.fuel))} fuel`);
    return parts.length === 0 ? '' : `left: ${parts.join(', ')}`;
  };

  const render = (event: LoopEvent): void => {
    if (options.turns === false) {
      // Only the motion: a spinner from the turn's start until its reply.
      if (event.type === 'turn-start' || event.type === 'model-text') renderLines(event);
      else if (event.type === 'reply' || event.type === 'call-failed' || event.type === 'prepared' || event.type === 'decision') stopSpinner();
      return;
    }
    renderLines(event);
  };

  const renderLines = (event: LoopEvent): void => {
    // A turn this process did not start (resume or approve continuing it) gets its header at its first event.
    if (options.turns !== false && 'turnIndex' in event && event.type !== 'turn-start' && headerShown !== `${event.sid} ${event.turnIndex}`) {
      headerShown = `${event.sid} ${event.turnIndex}`;
      write(`\n${colors.bold(`turn ${event.turnIndex}`)}${colors.yellow(' (continued)')}\n`);
    }
    switch (event.type) {
      case 'loop-start':
        write(`${colors.bold('askloop')} ${colors.dim('·')} agent ${colors.bold(terminalSafe(event.agent))} ${colors.dim(`· session ${event.sid}${event.resumed ? ' (resumed)' : ''}`)}\n`);
        return;
      case 'turn-start':
        stopSpinner();
        headerShown = `${event.sid} ${event.turnIndex}`;
        if (options.turns !== false) write(`\n${colors.bold(`turn ${event.turnIndex}`)}${event.kind === 'normal' ? '' : colors.yellow(` (${event.kind})`)}\n`);
        streamed = { turn: event.turnIndex, chars: 0, tail: '', line: '' };
        shownCodes = new Set();
        if (options.motion) {
          // handleSignals: false — Ctrl-C belongs to the command (it cancels the loop cleanly), not to the spinner.
          spinner = yoctoSpinner({ text: spinnerText(), stream: options.stream as Writable, handleSignals: false }).start();
          process.once('exit', stopOnExit);
        }
        return;
      case 'model-text':
        streamed.chars += event.delta.length;
        streamed.line += event.delta;
        if (streamed.line.includes('\n')) {
          // Show the line being written, or the last whole one while a new line is still blank.
          const lines = streamed.line.split('\n');
          streamed.line = lines.at(-1) ?? '';
          streamed.tail = lines.slice(0, -1).filter((line) => line.trim() !== '').at(-1) ?? streamed.tail;
        }
        // The reply is whole at its END line; the call may still end for a moment (a model talking on, its usage).
        if ((streamed.line.trim() === '' ? streamed.tail : streamed.line).trim() === endLine) stopSpinner();
        else if (spinner !== undefined) spinner.text = spinnerText();
        return;
      case 'reply':
        stopSpinner();
        write(labelled('model', `${formatCount(event.inputTokens)} in → ${formatCount(event.outputTokens)} out tokens ${colors.dim(`· ${formatDuration(event.latencyMs)}`)}`, colors));
        return;
      case 'call-failed':
        stopSpinner();
        // Its failure comes with the decision; a call that streamed part of a reply first was paid for, estimated.
        if (event.inputTokens + event.outputTokens > 0) write(labelled('model', `failed after about ${formatCount(event.inputTokens)} in → ${formatCount(event.outputTokens)} out tokens (estimated)`, colors));
        return;
      case 'prepared':
        stopSpinner();
        if (event.actions.trim() !== '') write(labelled('program', '', colors) + formatProgram(event.actions, colors));
        for (const diagnostic of event.diagnostics) {
          shownCodes.add(diagnostic.code);
          write(formatDiagnostic(diagnostic, colors));
        }
        return;
      case 'approval-required':
        stopSpinner();
        write(labelled('approval', colors.yellow(`needed: ${terminalSafe(event.message)}`), colors));
        return;
      case 'tool-call':
        write(formatToolCall(event.call, colors, width - 20));
        return;
      case 'emit':
        write(formatEmit(event.text, colors));
        return;
      case 'whisper':
        write(formatWhisper(event.target, event.text, colors));
        return;
      case 'decision': {
        stopSpinner();
        const usage = event.record.usage;
        if (event.record.reply !== undefined) {
          replies.seen = true;
          if (event.record.reply.costUsd !== undefined) replies.priced = true;
        }
        // By turn: an approval's pause and the turn's decision after it (or a denied v1 await's HALT) carry the same turn.
        const key = `${event.sid} ${event.turnIndex}`;
        const before = counted.get(key);
        counted.set(key, usage);
        totals.tokens += usage.inputTokens + usage.outputTokens - (before === undefined ? 0 : before.inputTokens + before.outputTokens);
        totals.costUsd += usage.costUsd - (before?.costUsd ?? 0);
        totals.toolCalls += usage.toolCalls - (before?.toolCalls ?? 0);
        totals.fuel += usage.fuel - (before?.fuel ?? 0);
        const failure = event.record.failure;
        if (failure !== undefined && event.decision.kind !== 'HALT' && !shownCodes.has(failure.code)) {
          const where = failure.line === undefined ? '' : ` at ${failure.line}:${failure.column ?? 1}`;
          write(labelled('error', colors.red(`${terminalSafe(failure.code)}${where}: ${oneLine(failure.message, cut(30))}`), colors));
        }
        const reason = decisionReason(event.decision);
        const facts = [formatDuration(event.log.latency_ms), `${formatCount(usage.inputTokens + usage.outputTokens)} tokens`, remaining(event.turnIndex)].filter((part) => part !== '');
        write(labelled('decision', `${paintDecision(event.decision.kind, colors)}${reason === '' ? '' : ` ${oneLine(reason, cut(40))}`} ${colors.dim(`· ${facts.join(' · ')}`)}`, colors));
        return;
      }
      case 'waiting':
        write(labelled('waiting', colors.dim(waitingText(event.sid, event.behind).replace(/^waiting: /, '')), colors));
        return;
      case 'hook-error':
        write(labelled('plugin', colors.yellow(`${terminalSafe(event.plugin)}.${terminalSafe(event.hook)} failed: ${oneLine(event.message, cut(30))}`), colors));
        return;
      case 'phase':
      case 'loop-end':
        return;
    }
  };

  return {
    onEvent: (event) => {
      // A rendering bug must never break the loop it watches.
      try {
        render(event);
      } catch {
        stopSpinner();
      }
    },
    finish(result, finishOptions = {}) {
      stopSpinner();
      write(formatSummary(result, { colors, width, nextSteps: finishOptions.nextSteps ?? true, costUnknown: replies.seen && !replies.priced, ...(finishOptions.dbPath === undefined ? {} : { dbPath: finishOptions.dbPath }) }));
    },
    close: stopSpinner,
  };
}
