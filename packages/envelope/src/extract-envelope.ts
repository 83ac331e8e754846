/**
 * Finds the envelope in a real model reply. Models wrap envelopes in
 * markdown fences, put prose before them, forget END, or answer with a bare
 * `command … endcommand` block. `parseEnvelope` stays strict; this recovers
 * and says in a lint what it had to do.
 */
import type { ParseResult } from './envelope.ts';
import { isEnvelopeError, MarkersInvalidError, SectionMissingError, type EnvelopeError } from './errors.ts';
import type { Lint } from './lint.ts';
import { markerLine } from './markers.ts';
import { parseEnvelope } from './parse-envelope.ts';
import { scanLines } from './scan-lines.ts';
import { checkBareActionsSize } from './size-check.ts';
import { kindOf } from './argument-type.ts';

/** Options of {@link extractEnvelope}. */
export interface ExtractOptions {
  /** USERDATA to use when the reply is a bare command block or an envelope without USERDATA (default `{}`). */
  userdata?: string;
}

const FENCE = /^\s*```/;

/**
 * Parses the envelope in `reply`, recovering from the usual wrappers:
 * prose or a fence before START (`LINT_RECOVERED_PREAMBLE`,
 * `LINT_RECOVERED_FENCE`), a fence around the ACTIONS program
 * (`LINT_RECOVERED_FENCE`), a missing END after a complete command block,
 * even with a closing fence or prose after it, or an END glued to a closing
 * fence (`LINT_RECOVERED_MISSING_END`), an envelope without USERDATA whose
 * ACTIONS is there (`LINT_RECOVERED_MISSING_USERDATA`: a host keeps its own
 * USERDATA, and refusing the envelope while a bare block is taken would be
 * strict the wrong way round), and a bare `command … endcommand` block
 * (`LINT_RECOVERED_BARE_COMMAND`). When nothing can be recovered, throws the
 * strict parser's error.
 */
export function extractEnvelope(reply: string, options: ExtractOptions = {}): ParseResult {
  // A caller's mistake, not a model's: a JavaScript caller was never type-checked.
  if (typeof reply !== 'string') throw new TypeError(`extractEnvelope takes the reply as a string, got ${kindOf(reply)}`);
  // Options that are no object read as none (a misspelt `userdat` too: the host's USERDATA was silently not used).
  if (typeof options !== 'object' || options === null) throw new TypeError(`extractEnvelope: options must be an object { userdata? }, got ${kindOf(options)}`);
  for (const key in options) if (key !== 'userdata') throw new TypeError(`extractEnvelope: unknown option '${key}'; the only option is userdata (USERDATA's JSON text)`);
  if (options.userdata !== undefined && typeof options.userdata !== 'string') throw new TypeError(`extractEnvelope: options.userdata must be USERDATA's JSON text, got ${kindOf(options.userdata)}`);
  let strictError: unknown;
  try {
    return unfenceActions(parseEnvelope(reply));
  } catch (error) {
    if (!isEnvelopeError(error)) throw error;
    strictError = error;
  }
  const lints: Lint[] = [];
  const start = findLine(reply, (line) => line.marker === 'START');
  if (start !== undefined) {
    let text = reply.slice(start.start);
    if (start.number > 1) {
      const fenced = FENCE.test(lastNonBlankLine(reply.slice(0, start.start)));
      lints.push({
        code: fenced ? 'LINT_RECOVERED_FENCE' : 'LINT_RECOVERED_PREAMBLE',
        message: fenced
          ? `the envelope was wrapped in a markdown fence (START at line ${start.number}); send the envelope bare`
          : `ignored ${start.number - 1} line(s) of text before the START marker; the envelope must begin with START`,
        line: start.number,
      });
    }
    if (findLine(text, (line) => line.number > 1 && line.marker === 'END') === undefined) {
      const repaired = closeMissingEnd(text);
      if (repaired !== undefined) {
        text = repaired.text;
        lints.push({ code: 'LINT_RECOVERED_MISSING_END', message: repaired.message });
      }
    }
    // Line numbers from parsing the text after the preamble count from START;
    // shift them so they point into the reply the model wrote.
    const offset = start.number - 1;
    let result: ParseResult;
    try {
      result = unfenceActions(parseEnvelope(text));
    } catch (error) {
      if (!(error instanceof SectionMissingError && error.section === 'USERDATA')) throw isEnvelopeError(error) && offset > 0 ? shiftErrorLines(error, offset) : error;
      return withUserdataAdded(text, options.userdata ?? '{}', offset, lints);
    }
    return { envelope: result.envelope, lints: [...lints, ...result.lints.map((lint) => shiftLintLines(lint, offset))] };
  }
  const block = findBareCommand(reply);
  if (block !== undefined) {
    checkBareActionsSize(block.text, block.line);
    return {
      envelope: { userdata: options.userdata ?? '{}', scratchpad: null, output: null, actions: block.text },
      lints: [
        {
          code: 'LINT_RECOVERED_BARE_COMMAND',
          message: 'the reply had no envelope, only a command … endcommand block; it was used as ACTIONS',
        },
      ],
    };
  }
  // Nothing to recover. A reply with no START line anywhere is not an envelope with something before it (the strict
  // parser's words): it is no envelope at all, and the model needs to hear that to answer with one.
  throw strictError instanceof MarkersInvalidError && strictError.reason === 'missing-start' ? noEnvelope(reply) : strictError;
}

/**
 * Parses `text` (an envelope from its START line, whose USERDATA section is
 * missing) with a USERDATA section of `userdata` put before its first
 * section (so text between START and that section stays the ignored
 * preamble it was). Line numbers in what it reports are the reply's: those
 * from that section on move back by the lines put in, then all forward by
 * `offset` (the lines before START).
 */
function withUserdataAdded(text: string, userdata: string, offset: number, lints: Lint[]): ParseResult {
  const section = findLine(text, (line) => line.number > 1 && line.marker !== undefined && line.marker !== 'START');
  const at = section?.start ?? text.length;
  const atLine = section?.number ?? Number.MAX_SAFE_INTEGER;
  const added = `${markerLine('USERDATA')}\n${userdata}\n`;
  const addedLines = added.split('\n').length - 1;
  // A line the added section holds is reported as the line it was put before.
  const shift = (line: number): number => (line >= atLine + addedLines ? line - addedLines : Math.min(line, atLine)) + offset;
  let result: ParseResult;
  try {
    result = unfenceActions(parseEnvelope(`${text.slice(0, at)}${added}${text.slice(at)}`));
  } catch (error) {
    throw isEnvelopeError(error) ? mapErrorLines(error, shift) : error;
  }
  const recovered: Lint = {
    code: 'LINT_RECOVERED_MISSING_USERDATA',
    message: `the envelope had no USERDATA section (START at line ${1 + offset}); its ACTIONS were used, with the host's own USERDATA`,
    line: 1 + offset,
  };
  return { envelope: result.envelope, lints: [...lints, recovered, ...result.lints.map((lint) => mapLintLines(lint, shift))] };
}

/** The error for a reply that holds no envelope and no command block. */
function noEnvelope(reply: string): MarkersInvalidError {
  const first = reply.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  const shown = first.length > 60 ? `${first.slice(0, 60)}…` : first;
  return new MarkersInvalidError(
    `line 1: the reply holds no envelope (no ${markerLine('START')} line anywhere; ${first === '' ? 'it is empty' : `it begins ${JSON.stringify(shown)}`}); answer with the envelope alone: START, USERDATA, ACTIONS holding the program, END, each marker on a line of its own`,
    { line: 1 },
    'missing-start',
  );
}

function findLine(text: string, test: (line: { number: number; marker: string | undefined }) => boolean) {
  let found: { number: number; start: number } | undefined;
  scanLines(text, (line) => {
    if (test(line)) found = { number: line.number, start: line.start };
    return found === undefined;
  });
  return found;
}

function lastNonBlankLine(text: string): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines[lines.length - 1] ?? '';
}

/**
 * Closes an envelope whose END line is missing after a complete command
 * block: keeps the text up to the last block's end (`endcommand`, `endfunc`,
 * `endon`) in ACTIONS and adds END. What followed the block is dropped and named in the message: a
 * closing fence, prose after it, or an END marker sharing its line with the
 * fence (`<<<NSENV:V4:END>>>```). ACTIONS is the last section and a program
 * ends at its `endcommand`, so nothing after it could have been part of
 * either; but a line there that reads as NeuroScript (a second `command`
 * block cut short, a stray statement) means the model wrote more program:
 * that is refused as before, not silently dropped.
 */
function closeMissingEnd(text: string): { text: string; message: string } | undefined {
  const lines = text.split(/\r?\n/);
  const actions = lines.findIndex((line) => line.trim() === markerLine('ACTIONS'));
  let last = lines.length - 1;
  while (last > actions && !BLOCK_END.test(lines[last]!)) last -= 1;
  if (actions < 0 || last <= actions || !lines.slice(actions + 1, last + 1).some((line) => line.trim() === 'endcommand')) return undefined;
  // A program in a fence of its own keeps its closing fence, so the fence around ACTIONS is still recognised and removed.
  const fenced = FENCE.test(lines.slice(actions + 1).find((line) => line.trim() !== '') ?? '');
  const dropped = lines.slice(last + 1).filter((line) => line.trim() !== '');
  const after = fenced && dropped[0]?.trim() === '```' ? dropped.slice(1) : dropped;
  if (after.some((line) => PROGRAM_LINE.test(line))) return undefined;
  const end = markerLine('END');
  const [first] = after;
  const message =
    first !== undefined && first.trim().startsWith(end)
      ? `the END marker shared its line with other text (${JSON.stringify(first.trim())}); it was put on a line of its own`
      : after.length === 0
        ? 'the END marker was missing after a complete command block; it was added'
        : `the END marker was missing after a complete command block; it was added, and the ${after.length} line(s) after the block (a closing fence or prose) were ignored`;
  return { text: `${lines.slice(0, last + 1).join('\n')}\n${fenced ? '```\n' : ''}${end}\n`, message };
}

/** The last line of a top-level block: a command, a function, an event handler. */
const BLOCK_END = /^\s*(endcommand|endfunc|endon)\s*$/;

/**
 * A line after the last block that starts like more NeuroScript: a block, or
 * a statement whose first word prose seldom begins with (keywords are lower
 * case; `if`, `for` and the like are left out, as "if anything is unclear…"
 * is prose, and a statement outside a block cannot run anyway).
 */
const PROGRAM_LINE = /^\s*(command|func|on\s+(?:error|event)|set|emit|whisper|call|must|ask|promptuser|clear_error|endcommand|endfunc|endon)(\s|\(|$)/;

const LINE_NUMBER = /\bline (\d+)/g;

function mapText(text: string, map: (line: number) => number): string {
  return text.replace(LINE_NUMBER, (_, number: string) => `line ${map(Number(number))}`);
}

function mapLintLines(lint: Lint, map: (line: number) => number): Lint {
  return { ...lint, message: mapText(lint.message, map), ...(lint.line === undefined ? {} : { line: map(lint.line) }) };
}

function shiftLintLines(lint: Lint, offset: number): Lint {
  return offset === 0 ? lint : mapLintLines(lint, (line) => line + offset);
}

/** A copy of `error` (same class and code) whose line numbers are mapped by `map`. */
function mapErrorLines(error: EnvelopeError, map: (line: number) => number): EnvelopeError {
  const copy = Object.create(Object.getPrototypeOf(error) as object) as EnvelopeError;
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(error));
  Object.defineProperty(copy, 'message', { value: mapText(error.message, map), writable: true, configurable: true });
  Object.defineProperty(copy, 'line', { value: error.line === undefined ? undefined : map(error.line), enumerable: true });
  return copy;
}

/** A copy of `error` whose line numbers are shifted by `offset`. */
function shiftErrorLines(error: EnvelopeError, offset: number): EnvelopeError {
  return mapErrorLines(error, (line) => line + offset);
}

/** Strips a markdown fence wrapped around the ACTIONS program (an opening fence line, some lines, a closing one). */
function unfenceActions(result: ParseResult): ParseResult {
  const lines = result.envelope.actions.split('\n');
  const firstIndex = lines.findIndex((line) => line.trim() !== '');
  const lastIndex = lines.length - 1;
  if (firstIndex === -1 || firstIndex >= lastIndex || !FENCE.test(lines[firstIndex]!) || lines[lastIndex]!.trim() !== '```') return result;
  const actions = lines.slice(firstIndex + 1, -1).join('\n').trimEnd();
  return {
    envelope: { ...result.envelope, actions },
    lints: [...result.lints, { code: 'LINT_RECOVERED_FENCE', message: 'the ACTIONS program was wrapped in a markdown fence; the fence was removed' }],
  };
}

/** The first `command` … last `endcommand` block of a reply, if any, and the reply's line it starts on. */
function findBareCommand(reply: string): { readonly text: string; readonly line: number } | undefined {
  const lines = reply.split(/\r?\n/);
  const start = lines.findIndex((line) => /^\s*command\s*$/.test(line));
  if (start === -1) return undefined;
  let end = -1;
  for (let index = lines.length - 1; index > start; index -= 1) {
    if (lines[index]!.trim() === 'endcommand') {
      end = index;
      break;
    }
  }
  return end === -1 ? undefined : { text: lines.slice(start, end + 1).join('\n'), line: start + 1 };
}
