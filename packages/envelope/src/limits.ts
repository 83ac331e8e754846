/** Size limits of seed 003 §3.4, in UTF-8 bytes. */

/** Largest envelope: 1 MiB. */
export const MAX_ENVELOPE_BYTES = 1_048_576;

/** Largest section body: 512 KiB. */
export const MAX_SECTION_BYTES = 524_288;

/** Deepest nesting canonical JSON accepts. */
export const MAX_JSON_DEPTH = 100;
