/**
 * What the model is told when its v4 DONE marker did not count: written with
 * `whisper` (it lands in SCRATCHPAD, which the host never scans for control),
 * misspelled in OUTPUT (`<<<LOOP: DONE>>>`, `<<<loop:done>>>`, `<<<DONE>>>`),
 * or written in the reply outside ACTIONS (in prose before the envelope or
 * after its block: the extractor drops it; after the END line, which the model
 * call never reads and only watches for the marker,
 * `RecordedReply.doneMarkerAfterEnd`). Without a word the model saw its turn go
 * on, did the same again, and the progress guard halted the loop
 * (`ERR_NO_PROGRESS`). Recorded on the turn as `LINT_MARKER_NOT_COUNTED`,
 * whose message the next turn's system text carries (OUTPUT, which `replay`
 * compares, stays as the program wrote it).
 */
import { LOOP_DONE_MARKER, markerLine } from '@askloop/envelope';
import type { RecordedReply, TurnRecord } from './turn-record.ts';

/** The lint of a turn whose DONE marker did not count; its message is the note for the next turn. */
export const MARKER_NOT_COUNTED = 'LINT_MARKER_NOT_COUNTED';

/**
 * A DONE marker written wrong: two or three angle brackets each side (bounded,
 * so a long run of `<` costs no backtracking), `LOOP` with a space, `_`, `-`
 * or `: ` before `DONE` (or no `LOOP` at all), in any case; or the v1 dialect's
 * `[[loop:done]]`. No space inside the brackets, so a shell line such as
 * `cat <<DONE >> log` is not one. ASCII only: a match quoted in the note keeps
 * the system text one byte a character.
 */
const NEAR_MISS = /<{2,3}(?:LOOP(?::[ \t]?|[ \t_-])?)?DONE>{2,3}|\[\[loop:done\]\]/gi;

/**
 * The first near-miss of the DONE marker in `output` (one regex over its
 * lines), or undefined when there is none. The marker itself is not one,
 * nor is a match that holds it (`<<<<LOOP:DONE>>>>`, which the scan counts).
 */
export function nearMissMarker(output: string): string | undefined {
  for (const match of output.matchAll(NEAR_MISS)) {
    if (!match[0].includes(LOOP_DONE_MARKER)) return match[0];
  }
  return undefined;
}

const TO_FINISH = `"${LOOP_DONE_MARKER} <result>"`;
const END_LINE = markerLine('END');

/**
 * The note for the turn after `record`, a v4 turn whose program ran and that
 * did not finish, when it wrote a DONE marker that did not count; undefined
 * otherwise. One note: a whispered marker first, then a near-miss in OUTPUT,
 * then a marker in the reply outside ACTIONS (after END, where it is not even
 * read, said as such).
 */
export function markerNotCountedNote(record: TurnRecord): string | undefined {
  // Markers the program does not write (a whisper of the task, an echoed USERDATA) are data, not a finish gone wrong.
  const writes = (record.actions ?? '').includes(LOOP_DONE_MARKER);
  if (writes && record.whispers.some((whisper) => whisper.text.includes(LOOP_DONE_MARKER))) {
    return `Your ${LOOP_DONE_MARKER} was in SCRATCHPAD (whisper), which never ends the loop: to finish, emit ${TO_FINISH}.`;
  }
  // The program's emits, not OUTPUT: a SYSTEM_ERROR line after them quotes error messages, not the program.
  const nearMiss = nearMissMarker(record.emits.join('\n'));
  if (nearMiss !== undefined) return `Your OUTPUT has ${JSON.stringify(nearMiss)}, which is not the marker: to finish, emit exactly ${TO_FINISH}.`;
  if (writes || record.reply === undefined) return undefined;
  const where = markerOutsideActions(record.reply);
  if (where === 'after END') {
    return `Your reply has ${LOOP_DONE_MARKER} after ${END_LINE}, outside ACTIONS, where it is never read: to finish, your program must emit ${TO_FINISH}.`;
  }
  if (where !== undefined) return `Your reply has ${LOOP_DONE_MARKER} outside ACTIONS, where it never ends the loop: to finish, your program must emit ${TO_FINISH}.`;
  return undefined;
}

/**
 * Where `reply` has the marker in its text around the envelope, which the
 * extractor drops: `after END` — seen by the model call as it streamed
 * (`doneMarkerAfterEnd`: a streamed reply ends with the END line), or in a
 * reply read whole (not streamed, or not parsed as it streamed) — else
 * `outside`: before START, or, without END, after the last `endcommand`, or
 * anywhere in a reply without START (a bare command block). Not the sections
 * between, whose USERDATA may quote a task that holds the marker. Undefined
 * when none of them has it.
 */
function markerOutsideActions(reply: RecordedReply): 'after END' | 'outside' | undefined {
  if (reply.doneMarkerAfterEnd === true) return 'after END';
  const text = reply.text;
  const start = text.indexOf(markerLine('START'));
  if (start < 0) return text.includes(LOOP_DONE_MARKER) ? 'outside' : undefined;
  const end = text.lastIndexOf(END_LINE);
  if (end > start && text.slice(end).includes(LOOP_DONE_MARKER)) return 'after END';
  const block = end > start ? -1 : text.lastIndexOf('endcommand');
  const around = text.slice(0, start) + (block > start ? text.slice(block) : '');
  return around.includes(LOOP_DONE_MARKER) ? 'outside' : undefined;
}

/**
 * The lint of a v4 turn whose OUTPUT held the marker from data the program emitted (a file, a tool result, the
 * task: `scan-control.ts`); its message says why the loop went on and ends with how to finish.
 */
const DONE_FROM_DATA = 'LINT_DONE_FROM_DATA';

/**
 * The note for the next turn's system text about `last`'s DONE marker: what {@link markerNotCountedNote} recorded,
 * else a marker that came from data (its lint said so in the record only, and the model went on emitting it).
 */
export function markerNotCountedLine(last: TurnRecord): string | undefined {
  return last.lints.find((lint) => lint.code === MARKER_NOT_COUNTED)?.message ?? last.lints.find((lint) => lint.code === DONE_FROM_DATA)?.message;
}
