import type { Lint } from './lint.ts';

/**
 * The four sections of an AEIOU v4 envelope (seed 003 §3). Absent optional
 * sections are `null`; a present but empty section is `""`.
 */
export interface Envelope {
  /** Host → program input: a JSON object as text (seed 003 §3.5). */
  userdata: string;
  /** The previous turn's `whisper` text, or `null`. */
  scratchpad: string | null;
  /** The previous turn's `emit` text, or `null`. */
  output: string | null;
  /** The program: exactly one `command … endcommand` block. */
  actions: string;
}

/** What parsing returns: the envelope and the lints found on the way. */
export interface ParseResult {
  envelope: Envelope;
  lints: Lint[];
}
