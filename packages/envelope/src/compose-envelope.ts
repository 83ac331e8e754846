/**
 * Composes envelope text per seed 003 §3 (reference doc §3.2): each marker
 * and body on its own line, every line ending in `\n`, empty optional
 * sections omitted.
 */
import { canonicalJson } from './canonical-json.ts';
import { MarkersInvalidError, SectionMissingError } from './errors.ts';
import { markerLine, matchMarker, type SectionName } from './markers.ts';
import { parseEnvelope } from './parse-envelope.ts';
import { kindOf, requireString } from './argument-type.ts';
import { validateUserdata } from './userdata.ts';

/** What {@link composeEnvelope} accepts: USERDATA may be given as an object. */
export interface EnvelopeInput {
  userdata: string | Record<string, unknown>;
  scratchpad?: string | null;
  output?: string | null;
  actions: string;
}

/**
 * Builds the envelope text. USERDATA given as an object is written as
 * canonical JSON. Throws `ERR_USERDATA_SCHEMA` (with `path`, as
 * {@link validateUserdata}) when USERDATA is not `{ subject, brief?, fields }`, `ERR_ENV_SECTION_MISSING` when USERDATA or ACTIONS is
 * empty or only white space (which reads back as empty), `ERR_ENV_MARKERS_INVALID` when a body has a line that is a marker
 * (it would end the section early; see {@link neutralizeMarkerLines}), and
 * `ERR_ENV_SIZE` when a limit is exceeded.
 */
export function composeEnvelope(input: EnvelopeInput): string {
  // A caller's mistake, not an envelope's: each section is text (USERDATA may also be the object), or absent.
  if (typeof input !== 'object' || input === null) throw new TypeError(`composeEnvelope takes { userdata, scratchpad?, output?, actions? }, got ${kindOf(input)}`);
  for (const name of ['scratchpad', 'output', 'actions'] as const) {
    const body: unknown = input[name];
    if (body !== undefined && body !== null && typeof body !== 'string') throw new TypeError(`composeEnvelope: ${name} must be a string, got ${typeof body}`);
  }
  if (input.userdata === null || (typeof input.userdata !== 'string' && typeof input.userdata !== 'object')) {
    throw new TypeError(`composeEnvelope: userdata must be a JSON object or its text, got ${kindOf(input.userdata)}`);
  }
  // USERDATA has one shape (seed 003 §3.5): the host's envelope must hold it. An object is checked as it is (a few
  // property reads); text is checked below, once the section checks that come first have passed.
  if (typeof input.userdata === 'object') validateUserdata(input.userdata);
  const userdata = typeof input.userdata === 'string' ? input.userdata : canonicalJson(input.userdata);
  if (userdata === '') throw new SectionMissingError('cannot compose an envelope without USERDATA: it must be a non-empty JSON object');
  if (input.actions === '') throw new SectionMissingError('cannot compose an envelope without ACTIONS: it must hold a command … endcommand block');
  const sections: Array<[SectionName, string | null | undefined]> = [
    ['USERDATA', userdata],
    ['SCRATCHPAD', input.scratchpad],
    ['OUTPUT', input.output],
    ['ACTIONS', input.actions],
  ];
  let text = `${markerLine('START')}\n`;
  for (const [name, body] of sections) {
    if (body === null || body === undefined || body === '') continue;
    checkBody(name, body);
    text += `${markerLine(name)}\n${body}\n`;
  }
  text += `${markerLine('END')}\n`;
  // The parser's own count decides the limits, so compose refuses exactly
  // what parse would refuse (cheap: short text is not counted at all).
  const { envelope } = parseEnvelope(text);
  // A body of white space alone reads back as empty (the parser trims it): refuse it as the empty body is refused,
  // rather than compose a required section that the other side reads as missing.
  if (envelope.userdata === '') throw new SectionMissingError('cannot compose an envelope without USERDATA: the text given holds only white space; it must be a non-empty JSON object');
  if (envelope.actions === '') throw new SectionMissingError('cannot compose an envelope without ACTIONS: the text given holds only white space; it must hold a command … endcommand block');
  if (typeof input.userdata === 'string') validateUserdata(userdata);
  return text;
}

function checkBody(name: SectionName, body: string): void {
  const lines = body.split('\n');
  const index = lines.findIndex((line) => matchMarker(line) !== undefined);
  if (index !== -1) {
    throw new MarkersInvalidError(
      `section ${name} line ${index + 1} is an envelope marker (${JSON.stringify(lines[index]!.trim())}); it would end the section early — neutralize such lines first`,
      {},
      'marker-in-content',
    );
  }
}

/**
 * Makes every line of `text` that is an envelope marker inert by putting a
 * backslash before it (`\<<<NSENV:V4:END>>>`), so program output can be fed
 * back into the next envelope without ending a section early. Other lines are
 * untouched.
 */
export function neutralizeMarkerLines(text: string): string {
  requireString(text, 'neutralizeMarkerLines: text');
  if (!text.includes('<<<NSENV:V4:')) return text;
  return text
    .split('\n')
    .map((line) => (matchMarker(line) === undefined ? line : `\\${line}`))
    .join('\n');
}
