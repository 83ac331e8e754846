/**
 * Typed errors of the envelope codec. Every error has a stable `code`; the
 * spec's names (seed 002 §8) are used where the spec names the failure.
 */

/** Every error code this package can raise. Sorted; stable across releases. */
export const ENVELOPE_ERROR_CODES = [
  'ERR_ENV_ENCODING',
  'ERR_ENV_MARKERS_INVALID',
  'ERR_ENV_ORDER',
  'ERR_ENV_SECTION_MISSING',
  'ERR_ENV_SIZE',
  'ERR_JSON_DEPTH',
  'ERR_JSON_SYNTAX',
  'ERR_USERDATA_SCHEMA',
] as const;

/** A stable error code of this package. */
export type EnvelopeErrorCode = (typeof ENVELOPE_ERROR_CODES)[number];

const MARKER = Symbol.for('askloop.envelope.error');

/** Where in the input an error was found. */
export interface EnvelopeErrorDetails {
  /** 1-based line of the envelope text, when the error belongs to a line. */
  line?: number;
  /** JSON path of the first problem, for USERDATA and JSON errors (e.g. `$.fields`). */
  path?: string;
}

/**
 * Base class of every error the codec throws. Use {@link isEnvelopeError}
 * rather than `instanceof` when two copies of the package may be loaded.
 */
export class EnvelopeError extends Error {
  readonly code: EnvelopeErrorCode;
  readonly line: number | undefined;
  readonly path: string | undefined;
  readonly [MARKER] = true;

  constructor(code: EnvelopeErrorCode, message: string, details: EnvelopeErrorDetails = {}) {
    super(message);
    this.name = 'EnvelopeError';
    this.code = code;
    this.line = details.line;
    this.path = details.path;
  }

  /** A plain, JSON-copyable view: `{ code, message, line?, path? }`. */
  toJSON(): { code: EnvelopeErrorCode; message: string; line?: number; path?: string } {
    return {
      code: this.code,
      message: this.message,
      ...(this.line === undefined ? {} : { line: this.line }),
      ...(this.path === undefined ? {} : { path: this.path }),
    };
  }
}

/** True for an error thrown by any copy of this package. */
export function isEnvelopeError(value: unknown): value is EnvelopeError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}

/** Which marker rule a {@link MarkersInvalidError} broke. */
export type MarkersInvalidReason = 'missing-start' | 'missing-end' | 'marker-in-content';

/** The first line is not START, or END is missing, or a section body would hold a marker line. */
export class MarkersInvalidError extends EnvelopeError {
  readonly reason: MarkersInvalidReason;

  constructor(message: string, details: EnvelopeErrorDetails, reason: MarkersInvalidReason) {
    super('ERR_ENV_MARKERS_INVALID', message, details);
    this.name = 'MarkersInvalidError';
    this.reason = reason;
  }
}

/** USERDATA or ACTIONS is absent (or empty when composing). */
export class SectionMissingError extends EnvelopeError {
  /** The section that is missing, when a parsed envelope lacks one (undefined when composing). */
  readonly section: 'USERDATA' | 'ACTIONS' | undefined;

  constructor(message: string, details?: EnvelopeErrorDetails, section?: 'USERDATA' | 'ACTIONS') {
    super('ERR_ENV_SECTION_MISSING', message, details);
    this.name = 'SectionMissingError';
    this.section = section;
  }
}

/** Sections are not in the order USERDATA, [SCRATCHPAD], [OUTPUT], ACTIONS. */
export class SectionOrderError extends EnvelopeError {
  constructor(message: string, details?: EnvelopeErrorDetails) {
    super('ERR_ENV_ORDER', message, details);
    this.name = 'SectionOrderError';
  }
}

/** The envelope is over 1 MiB or a section over 512 KiB (UTF-8 bytes). */
export class EnvelopeSizeError extends EnvelopeError {
  constructor(message: string, details?: EnvelopeErrorDetails) {
    super('ERR_ENV_SIZE', message, details);
    this.name = 'EnvelopeSizeError';
  }
}

/** Input bytes are not valid UTF-8. */
export class EnvelopeEncodingError extends EnvelopeError {
  constructor(message: string, details?: EnvelopeErrorDetails) {
    super('ERR_ENV_ENCODING', message, details);
    this.name = 'EnvelopeEncodingError';
  }
}

/** USERDATA is not `{"subject": string, "brief"?: string, "fields": object}`. */
export class UserdataSchemaError extends EnvelopeError {
  constructor(message: string, details?: EnvelopeErrorDetails) {
    super('ERR_USERDATA_SCHEMA', message, details);
    this.name = 'UserdataSchemaError';
  }
}

/** Canonical JSON input is not valid JSON. */
export class JsonSyntaxError extends EnvelopeError {
  constructor(message: string, details?: EnvelopeErrorDetails) {
    super('ERR_JSON_SYNTAX', message, details);
    this.name = 'JsonSyntaxError';
  }
}

/** Canonical JSON input nests deeper than the limit (100). */
export class JsonDepthError extends EnvelopeError {
  constructor(message: string, details?: EnvelopeErrorDetails) {
    super('ERR_JSON_DEPTH', message, details);
    this.name = 'JsonDepthError';
  }
}
