/**
 * `askloop show` prints a long task (a pasted document) on one line, cut to
 * its first 300 characters with how long it is, and whole with `--full`.
 * Regression: it printed every line of it above the turns.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { seedSession, sessionsFileIn } from './view-seed.ts';
import { tempFolder } from './temp-folder.ts';

const dir = tempFolder('show-long-task');

describe('askloop show of a session with a long task', () => {
  it('cuts the task to one line of 300 characters without --full, and prints it whole with it', async () => {
    const { db, store } = sessionsFileIn(dir);
    const task = Array.from({ length: 200 }, (_, index) => `line ${index} of the pasted report`).join('\n');
    const short = await seedSession(store, 'short-task', { task: 'count these words' });
    // Walkthrough: a short task of two lines printed its second line at column 0; an emoji was cut in half.
    const twoLines = await seedSession(store, 'two-line-task', { task: 'multi\nline task\twith tab' });
    const emoji = await seedSession(store, 'emoji-task', { task: `${'a'.repeat(298)}🎉🎉 tail` });
    const long = await seedSession(store, 'long-task', { task });
    await store.close();
    const show = async (...args: string[]) => {
      const io = captureIo({ cwd: dir });
      expect(await main(['show', ...args, '--db', db], io)).toBe(0);
      return io.out.split('\n').find((line) => line.startsWith('  task ')) ?? '';
    };
    expect(await show(short)).toBe('  task     count these words');
    expect(await show(twoLines)).toBe('  task     multi ⏎ line task with tab');
    const emojiLine = await show(emoji);
    expect(emojiLine).toContain(`${'a'.repeat(298)}…`);
    expect(emojiLine).not.toContain('\uFFFD');
    expect(emojiLine).toContain('(305 characters; --full shows it whole)');
    const cut = await show(long);
    expect(cut).toMatch(/^ {2}task {5}line 0 of the pasted report ⏎ line 1 of/);
    expect(cut).toContain(`… (${task.length.toLocaleString('en-US')} characters; --full shows it whole)`);
    expect(cut.length).toBeLessThan(400);
    const io = captureIo({ cwd: dir });
    expect(await main(['show', long, '--db', db, '--full'], io)).toBe(0);
    expect(io.out).toContain(`  task     ${task}\n`);
  });
});
