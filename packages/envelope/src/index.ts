/**
 * @askloop/envelope — the AEIOU v4 envelope codec (seed 003), loop-control
 * scanning in the v4 and v1 dialects, the progress digest, and canonical JSON.
 */
// First, before anything that an old Node cannot load: one clear error on a Node that is too old.
import './node-version-check.ts';
export type { Envelope, ParseResult } from './envelope.ts';
export { parseEnvelope } from './parse-envelope.ts';
export { EnvelopeStreamParser, type StreamStatus } from './envelope-stream-parser.ts';
export { composeEnvelope, neutralizeMarkerLines, type EnvelopeInput } from './compose-envelope.ts';
export { extractEnvelope, type ExtractOptions } from './extract-envelope.ts';
export { validateUserdata, type Userdata } from './userdata.ts';
export { scanDoneMarker, type DoneScan } from './loop-control-v4.ts';
export {
  haltMarker,
  scanLoopControlV1,
  SIGNAL_PRECEDENCE,
  strongestSignal,
  type ControlScan,
  type FoundSignal,
  type LoopSignal,
} from './loop-control-v1.ts';
export { cleanPayload } from './clean-payload.ts';
export {
  DEFAULT_NO_PROGRESS_TURNS,
  normalizeForDigest,
  progressDigest,
  ProgressTracker,
} from './progress-digest.ts';
export { canonicalJson, canonicalizeJson } from './canonical-json.ts';
export { compareCodePoints } from './code-point-order.ts';
export {
  LOOP_DONE_MARKER,
  markerLine,
  matchMarker,
  SECTION_NAMES,
  type MarkerName,
  type SectionName,
} from './markers.ts';
export { MAX_ENVELOPE_BYTES, MAX_JSON_DEPTH, MAX_SECTION_BYTES } from './limits.ts';
export { LINT_CODES, type Lint, type LintCode } from './lint.ts';
export {
  ENVELOPE_ERROR_CODES,
  EnvelopeEncodingError,
  EnvelopeError,
  EnvelopeSizeError,
  isEnvelopeError,
  JsonDepthError,
  JsonSyntaxError,
  MarkersInvalidError,
  SectionMissingError,
  SectionOrderError,
  UserdataSchemaError,
  type EnvelopeErrorCode,
  type EnvelopeErrorDetails,
  type MarkersInvalidReason,
} from './errors.ts';
