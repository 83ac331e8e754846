/**
 * Known secrets out of what the controller keeps: a model may write a key in
 * its reply (it saw it somewhere, or guessed it), a program may build one
 * (`"sk-" + "…"`), a plugin's hook or a person's note may quote one. Every
 * string of a record and of a session row has the loop's `secrets()` and the
 * model's keys replaced by `[REDACTED]` (`redactToolValue` with the
 * redactor's `secretsOnly`, as tool results are) before it is stored
 * (`secret-hiding-store.ts`).
 *
 * Two parts are hidden earlier, in the turn itself, so that what runs is what
 * is stored: the reply, before its program is prepared (a turn continued from
 * the store — after a crash, a cancel, an approval — and a replay run exactly
 * the program the turn ran), and what the run produced, before its progress
 * digest is taken and its OUTPUT scanned (the digest is of the OUTPUT and
 * SCRATCHPAD as stored and as the next envelope carries them; a digest of the
 * text with the key would also let anyone holding the file test guesses of it).
 */
import { progressDigest } from '@askloop/envelope';
import { redactToolValue, type ToolValue } from '@askloop/tools';
import type { EmitEvent } from '../events/event-bus.ts';
import type { SessionRecord } from '../store/transcript-store.ts';
import type { ExecutePatch } from './execute-turn.ts';
import type { Redact } from './tool-output-redaction.ts';
import type { RecordedReply, TurnRecord } from './turn-record.ts';

/** `value` (plain JSON) with the secrets `redact` knows hidden in every string, map keys too; the same object when none was there. */
function hidden<T>(value: T, redact: Redact): T {
  return redactToolValue(value as ToolValue, redact) as T;
}

/**
 * `record` with the secrets hidden everywhere; the same object when none was there. The checked program (`prepared`,
 * in memory only: its source is `actions`, hidden with the reply) is kept as it is.
 */
export function hideRecordSecrets(record: TurnRecord, redact: Redact | undefined): TurnRecord {
  if (redact === undefined) return record;
  const { prepared, ...kept } = record;
  const shown = hidden(kept, redact);
  if (shown === kept) return record;
  return prepared === undefined ? shown : { ...shown, prepared };
}

/**
 * `session` with the secrets hidden everywhere (its task, its agent, its last decision); the same object when none was
 * there. Not its tally: numbers, decision kinds, halt reasons (codes from one table) and digests, which no text reaches,
 * and whose list of decisions grows with every turn (walked at each save, it made a long session's turns slower).
 */
export function hideSessionSecrets(session: SessionRecord, redact: Redact | undefined): SessionRecord {
  if (redact === undefined) return session;
  const { tally, ...rest } = session;
  const shown = hidden(rest, redact);
  if (shown === rest) return session;
  return tally === undefined ? shown : { ...shown, tally };
}

/**
 * The model's reply with the secrets hidden in its text, marked `secretsHidden` when one was: the program that runs is
 * the one stored. The same object when none was there.
 */
export function hideReplySecrets(reply: RecordedReply, redact: Redact | undefined): RecordedReply {
  if (redact === undefined) return reply;
  const text = redact(reply.text);
  return text === reply.text ? reply : { ...reply, text, secretsHidden: true };
}

/**
 * What a run produced with the secrets hidden, its digest taken again when its OUTPUT or SCRATCHPAD held one: the
 * digest of the text as stored. The same object when none was there.
 */
export function hideRunSecrets(patch: ExecutePatch, redact: Redact | undefined): ExecutePatch {
  if (redact === undefined) return patch;
  const shown = hidden(patch, redact);
  if (shown === patch) return shown;
  const changed = shown.output !== patch.output || shown.scratchpad !== patch.scratchpad;
  return changed ? { ...shown, digest: progressDigest(shown.output, shown.scratchpad) } : shown;
}

/**
 * `emit` whose run events — each emit and whisper as it is made, each tool call as it is recorded — carry the secrets
 * hidden, as the record they make up is stored: a program that built a key from parts (`"sk-" + …`) and emitted it,
 * whispered it or passed it to a tool shows a listener (a plugin's `onEvent`, the OpenTelemetry spans) the mark too.
 * `emit` itself when no secret is known.
 */
export function hidingRunEvents(emit: EmitEvent, redact: Redact | undefined): EmitEvent {
  if (redact === undefined) return emit;
  return (event) => emit(event.type === 'emit' || event.type === 'whisper' || event.type === 'tool-call' ? hidden(event, redact) : event);
}
