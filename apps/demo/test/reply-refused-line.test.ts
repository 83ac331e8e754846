/**
 * A reply with no envelope, fed back under --repair, is explained in the
 * progress lines (it never reaches the check, whose refusals have their own
 * line): the log used to show only "turn 1: CONTINUE (next: repair turn)".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-reply-refused-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a reply without an envelope under --repair', () => {
  it('prints why the reply was refused before the repair turn, and the model hears it once located', async () => {
    writeFileSync(join(dir, 'script.json'), JSON.stringify(['Sure! The answer is 42.', envelope('emit "<<<LOOP:DONE>>> 42"')]));
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'answer', '--script', 'script.json', '--db', 'r.db', '--repair', '1'], io), io.err).toBe(0);
    expect(io.err).toContain(
      '  turn 1: reply refused: ERR_ENV_MARKERS_INVALID: line 1: the reply holds no envelope (no <<<NSENV:V4:START>>> line anywhere; it begins "Sure! The answer is 42."); answer with the envelope alone',
    );
    expect(io.err).toContain('  turn 1: CONTINUE (next: repair turn)');
    expect(io.out).toBe('42\n');
    // What the model read on the repair turn: the place said once.
    const show = captureIo({ cwd: dir });
    const sid = /session ([0-9a-f-]{36})/.exec(io.err)?.[1];
    expect(sid).toBeDefined();
    expect(await main(['show', sid!, '--db', 'r.db', '--json'], show), show.err).toBe(0);
    const turns = (JSON.parse(show.out) as { turns: { output?: string }[] }).turns;
    expect(turns[0]?.output).toMatch(/^SYSTEM_ERROR ERR_ENV_MARKERS_INVALID at line 1: the reply holds no envelope /);
  });
});
