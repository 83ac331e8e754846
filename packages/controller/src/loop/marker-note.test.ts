import { describe, expect, it } from 'vitest';
import { markerNotCountedLine, markerNotCountedNote, MARKER_NOT_COUNTED, nearMissMarker } from './marker-note.ts';
import type { TurnRecord } from './turn-record.ts';

describe('nearMissMarker', () => {
  it.each([
    ['<<<LOOP: DONE>>> 4', '<<<LOOP: DONE>>>'],
    ['<<<LOOP:done>>> 4', '<<<LOOP:done>>>'],
    ['<<LOOP:DONE>> 4', '<<LOOP:DONE>>'],
    ['<<<LOOP DONE>>>', '<<<LOOP DONE>>>'],
    ['the answer\n<<<DONE>>>', '<<<DONE>>>'],
    ['<<<LOOP_DONE>>> 4', '<<<LOOP_DONE>>>'],
    ['<<<LOOP:DONE>> 4', '<<<LOOP:DONE>>'],
    ['[[loop:done]] 4', '[[loop:done]]'],
  ])('catches %j', (output, found) => {
    expect(nearMissMarker(output)).toBe(found);
  });

  it.each([
    'done',
    'Loop done. LOOP:DONE in prose',
    '<<<LOOP:DONE>>> 4',
    '<<<<LOOP:DONE>>>> 4',
    'cat <<DONE >> log.txt',
    'x << DONE >> y',
    'a << b >> c; 1 << 2',
    '<done> </done>',
    '<<<NSENV:V4:END>>>',
    '<<<LOOP:CONTINUE>>>',
    '',
  ])('does not fire on %j', (output) => {
    expect(nearMissMarker(output)).toBeUndefined();
  });

  it('reads a long run of brackets in linear time', () => {
    const started = performance.now();
    expect(nearMissMarker(`${'<'.repeat(200_000)}LOOP ${'>'.repeat(200_000)}`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

const turn = (patch: Partial<TurnRecord>): TurnRecord => ({ emits: [], whispers: [], lints: [], actions: 'command\n  emit "4"\nendcommand', ...patch }) as unknown as TurnRecord;
const envelope = (program: string, after = '') => `<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{"subject":"<<<LOOP:DONE>>> in the task"}\n<<<NSENV:V4:ACTIONS>>>\n${program}\n<<<NSENV:V4:END>>>\n${after}`;
const reply = (text: string) => ({ text }) as TurnRecord['reply'];
const AFTER_END = 'Your reply has <<<LOOP:DONE>>> after <<<NSENV:V4:END>>>, outside ACTIONS, where it is never read: to finish, your program must emit "<<<LOOP:DONE>>> <result>".';

describe('markerNotCountedNote', () => {
  it('names a whispered marker the program wrote', () => {
    const record = turn({ actions: 'command\n  whisper self, "<<<LOOP:DONE>>> 4"\nendcommand', whispers: [{ target: 'self', text: '<<<LOOP:DONE>>> 4' }] });
    expect(markerNotCountedNote(record)).toBe('Your <<<LOOP:DONE>>> was in SCRATCHPAD (whisper), which never ends the loop: to finish, emit "<<<LOOP:DONE>>> <result>".');
  });

  it('says nothing of a whisper of data that holds the marker', () => {
    expect(markerNotCountedNote(turn({ whispers: [{ target: 'self', text: 'task: <<<LOOP:DONE>>> x' }] }))).toBeUndefined();
  });

  it('quotes a near-miss in what the program emitted, not in a SYSTEM_ERROR line', () => {
    expect(markerNotCountedNote(turn({ emits: ['<<<LOOP: DONE>>> 4'] }))).toBe('Your OUTPUT has "<<<LOOP: DONE>>>", which is not the marker: to finish, emit exactly "<<<LOOP:DONE>>> <result>".');
    expect(markerNotCountedNote(turn({ emits: ['4'], output: '4\nSYSTEM_ERROR: <<DONE>>\n' }))).toBeUndefined();
  });

  it('names a marker before START, after END or after the block of an envelope without END, not one in the USERDATA the model echoed', () => {
    const noEnd = '<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{}\n<<<NSENV:V4:ACTIONS>>>\ncommand\n  emit "4"\nendcommand\nDone! <<<LOOP:DONE>>> 4';
    expect(markerNotCountedNote(turn({ reply: reply(noEnd) }))).toContain('outside ACTIONS');
    expect(markerNotCountedNote(turn({ reply: reply('Here: <<<LOOP:DONE>>> 4\ncommand\n  emit "4"\nendcommand') }))).toBe('Your reply has <<<LOOP:DONE>>> outside ACTIONS, where it never ends the loop: to finish, your program must emit "<<<LOOP:DONE>>> <result>".');
    // A reply read whole (not streamed) keeps what follows END: the note says where the marker was.
    expect(markerNotCountedNote(turn({ reply: reply(envelope('command\n  emit "4"\nendcommand', '<<<LOOP:DONE>>> 4')) }))).toBe(AFTER_END);
    expect(markerNotCountedNote(turn({ reply: reply(`<<<LOOP:DONE>>> 4\n${envelope('command\n  emit "4"\nendcommand')}`) }))).toContain('outside ACTIONS');
    expect(markerNotCountedNote(turn({ reply: reply(envelope('command\n  emit "4"\nendcommand')) }))).toBeUndefined();
  });

  it('names a marker the model call saw after END, which the recorded reply leaves out', () => {
    const streamed = { text: envelope('command\n  emit "4"\nendcommand'), doneMarkerAfterEnd: true } as TurnRecord['reply'];
    expect(markerNotCountedNote(turn({ reply: streamed }))).toBe(AFTER_END);
    // Not when the program writes the marker itself: the scan decides, and its own lints say why it did not count.
    expect(markerNotCountedNote(turn({ reply: streamed, actions: 'command\n  if false\n    emit "<<<LOOP:DONE>>> 4"\n  endif\nendcommand' }))).toBeUndefined();
  });

  it('keeps the note one byte a character', () => {
    const note = markerNotCountedNote(turn({ emits: ['<<<LOOP:\tDONE>>>'] })) ?? '';
    expect(note).toContain('\\t');
    expect(note.match(/[^\u0000-\u00ff]/g) ?? []).toEqual([]);
  });

  it('is read back from the lint of the turn before', () => {
    expect(markerNotCountedLine(turn({ lints: [{ code: MARKER_NOT_COUNTED, message: 'the note' }] }))).toBe('the note');
    expect(markerNotCountedLine(turn({}))).toBeUndefined();
    // A marker that came from data: its lint's message (which says how to finish) goes to the next turn too.
    expect(markerNotCountedLine(turn({ lints: [{ code: 'LINT_DONE_FROM_DATA', message: 'from data; to finish, emit it yourself' }] }))).toBe('from data; to finish, emit it yourself');
  });
});
