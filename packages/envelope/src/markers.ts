/**
 * The AEIOU v4 envelope markers (seed 003 §3.1) and loop-control markers
 * (seed 003 §5.2, seed 000 §2.6).
 */
import { kindOf, requireString } from './argument-type.ts';

/** The envelope's sections in their required order (seed 003 §3.2). */
export const SECTION_NAMES = ['USERDATA', 'SCRATCHPAD', 'OUTPUT', 'ACTIONS'] as const;

/** A section of the envelope. */
export type SectionName = (typeof SECTION_NAMES)[number];

/** Every marker word: the sections plus START and END. */
export type MarkerName = 'START' | SectionName | 'END';

const MARKER_PREFIX = '<<<NSENV:V4:';
const MARKER_NAMES: ReadonlySet<string> = new Set(['START', ...SECTION_NAMES, 'END']);

/**
 * `<<<NSENV:V4:NAME>>>` for a marker word. Any other name is a `TypeError`
 * naming the six: a made-up marker (`<<<NSENV:V4:NOPE>>>`) is one no parser
 * reads as a marker, and `start` in lower case is not one either.
 */
export function markerLine(name: MarkerName): string {
  if (!MARKER_NAMES.has(name)) throw new TypeError(unknownMarkerMessage(name));
  return `<<<NSENV:V4:${name}>>>`;
}

function unknownMarkerMessage(name: unknown): string {
  const meant = typeof name === 'string' && MARKER_NAMES.has(name.trim().toUpperCase()) ? `; did you mean '${name.trim().toUpperCase()}'?` : '';
  const got = typeof name === 'string' ? JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name) : kindOf(name);
  return `markerLine: name must be one of ${[...MARKER_NAMES].join(', ')}, got ${got}${meant}`;
}

/** The v4 loop-completion marker (seed 003 §5.2). */
export const LOOP_DONE_MARKER = '<<<LOOP:DONE>>>';

/**
 * The marker a line holds, or `undefined`. A line is a marker when its text,
 * trimmed of surrounding white space, is exactly one of the six markers.
 */
export function matchMarker(line: string): MarkerName | undefined {
  requireString(line, 'matchMarker: line');
  const text = trimMarkerText(line);
  if (!text.startsWith(MARKER_PREFIX) || !text.endsWith('>>>')) return undefined;
  const name = text.slice(MARKER_PREFIX.length, -3);
  return MARKER_NAMES.has(name) ? (name as MarkerName) : undefined;
}

/** True when a line looks like an envelope marker but is not one (`<<<NSENV:V3:START>>>`, `<<<NSENV:V4:INPUT>>>`). */
export function looksLikeMarker(line: string): boolean {
  const text = trimMarkerText(line);
  return text.startsWith('<<<NSENV') && text.endsWith('>>>') && matchMarker(text) === undefined;
}

/** The order rank of a section: USERDATA 0, SCRATCHPAD 1, OUTPUT 2, ACTIONS 3. */
export function sectionRank(name: SectionName): number {
  return SECTION_NAMES.indexOf(name);
}

/**
 * True for the characters trimmed around a marker line: ASCII white space,
 * no-break space and the byte-order mark (a BOM before START is tolerated).
 */
export function isMarkerSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0xfeff;
}

/** Trims {@link isMarkerSpace} characters from both ends. */
export function trimMarkerText(line: string): string {
  let start = 0;
  let end = line.length;
  while (start < end && isMarkerSpace(line.charCodeAt(start))) start += 1;
  while (end > start && isMarkerSpace(line.charCodeAt(end - 1))) end -= 1;
  return start === 0 && end === line.length ? line : line.slice(start, end);
}
