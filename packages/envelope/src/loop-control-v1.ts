/**
 * v1 loop control (seed 000 §2.6–2.8): a control JSON object on the first
 * line of OUTPUT, or `[[loop:…]]` markers anywhere in it. Mixed signals
 * resolve by precedence abort > halt > await > done > continue, and only an
 * explicit continue continues.
 */
import { requireString } from './argument-type.ts';

/** A v1 loop signal. `await` is the approval pause of the ask-loop discussion (seed 001). */
export type LoopSignal = 'abort' | 'halt' | 'await' | 'done' | 'continue';

/** Strongest first. */
export const SIGNAL_PRECEDENCE: readonly LoopSignal[] = ['abort', 'halt', 'await', 'done', 'continue'];

/** One signal found in OUTPUT. */
export interface FoundSignal {
  signal: LoopSignal;
  source: 'json' | 'marker';
  /** 1-based OUTPUT line. */
  line: number;
  /** `reason=…` of abort/halt markers, or the JSON's `reason`. */
  reason?: string;
  /** `approval_id=…` of an await marker. */
  approvalId?: string;
  /** The control JSON's `notes`. */
  notes?: string;
  /** The control JSON's `plan_digest`. */
  planDigest?: string;
}

/** The outcome of scanning OUTPUT for v1 control. */
export interface ControlScan {
  /** The winning signal, or `null` when OUTPUT holds none (which does not continue). */
  signal: LoopSignal | null;
  /** The winning signal's details. */
  winner: FoundSignal | null;
  /** Every signal found, in OUTPUT order. */
  found: FoundSignal[];
  /** True only for an explicit, unopposed continue (seed 000 §2.8). */
  shouldContinue: boolean;
}

const SIGNALS: ReadonlySet<string> = new Set(SIGNAL_PRECEDENCE);

/** Scans one turn's OUTPUT for v1 control signals. */
export function scanLoopControlV1(output: string): ControlScan {
  requireString(output, 'scanLoopControlV1: output');
  const lines = output.split(/\r?\n/);
  const found: FoundSignal[] = [];
  const json = readControlJson(lines[0] ?? '');
  if (json) found.push(json);
  lines.forEach((line, index) => {
    for (const { signal: name, parameter } of findMarkers(line)) {
      const signal: FoundSignal = { signal: name, source: 'marker', line: index + 1 };
      if (parameter !== undefined) {
        const equals = parameter.indexOf('=');
        const key = equals === -1 ? 'reason' : parameter.slice(0, equals);
        const value = equals === -1 ? parameter : parameter.slice(equals + 1);
        if (key === 'approval_id') signal.approvalId = value;
        else signal.reason = value;
      }
      found.push(signal);
    }
  });
  const winner = strongestSignal(found);
  return { signal: winner?.signal ?? null, winner, found, shouldContinue: winner?.signal === 'continue' };
}

/** The signal of `found` that wins by {@link SIGNAL_PRECEDENCE} (the first of equals), or `null` when there is none. */
export function strongestSignal(found: readonly FoundSignal[]): FoundSignal | null {
  let winner: FoundSignal | null = null;
  for (const candidate of found) {
    if (winner === null || SIGNAL_PRECEDENCE.indexOf(candidate.signal) < SIGNAL_PRECEDENCE.indexOf(winner.signal)) winner = candidate;
  }
  return winner;
}

const MARKER_START = '[[loop:';

/**
 * The `[[loop:SIGNAL]]` and `[[loop:SIGNAL:PARAMETER]]` markers of one line,
 * in order. A parameter runs to the first `]`, which must be followed by
 * another. Scanned by hand, in linear time: the equivalent regular expression
 * backtracks quadratically on a line of unclosed markers.
 */
function findMarkers(line: string): Array<{ signal: LoopSignal; parameter?: string }> {
  const found: Array<{ signal: LoopSignal; parameter?: string }> = [];
  let bracket = -1;
  for (let at = line.indexOf(MARKER_START); at !== -1; at = line.indexOf(MARKER_START, at + 1)) {
    const wordStart = at + MARKER_START.length;
    const signal = SIGNAL_PRECEDENCE.find((word) => line.startsWith(word, wordStart));
    if (signal === undefined) continue;
    const wordEnd = wordStart + signal.length;
    if (line.startsWith(']]', wordEnd)) {
      found.push({ signal });
      continue;
    }
    if (line[wordEnd] !== ':') continue;
    // The next `]` is searched once and reused by every marker before it.
    if (bracket < wordEnd) bracket = line.indexOf(']', wordEnd);
    if (bracket === -1) break;
    if (line[bracket + 1] === ']') found.push({ signal, parameter: line.slice(wordEnd + 1, bracket) });
  }
  return found;
}

function readControlJson(firstLine: string): FoundSignal | undefined {
  const text = firstLine.trim();
  if (!text.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.loop !== 'string' || !SIGNALS.has(record.loop)) return undefined;
  const signal: FoundSignal = { signal: record.loop as LoopSignal, source: 'json', line: 1 };
  if (typeof record.reason === 'string') signal.reason = record.reason;
  if (typeof record.notes === 'string') signal.notes = record.notes;
  if (typeof record.plan_digest === 'string') signal.planDigest = record.plan_digest;
  if (typeof record.approval_id === 'string') signal.approvalId = record.approval_id;
  return signal;
}

/** The marker a host appends when it stops the loop itself (seed 000 §2.6): `[[loop:halt:reason=…]]`. */
export function haltMarker(reason: string): string {
  requireString(reason, 'haltMarker: reason');
  return `[[loop:halt:reason=${reason.replace(/[\]\n]/g, ' ')}]]`;
}
