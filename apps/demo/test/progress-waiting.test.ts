/**
 * A step that waits for its session says so on standard error, once, naming
 * whom it waits behind: a host that died holds the session's lease until it
 * runs out, and `askloop resume` used to print nothing for those seconds.
 */
import { describe, expect, it } from 'vitest';
import { progressLines, waitingText } from '../src/loop/progress-lines.ts';
import { captureIo } from './capture-io.ts';

describe('the waiting line', () => {
  it('names the session and whom the step waits behind', () => {
    const io = captureIo();
    const print = progressLines(io);
    print({ type: 'waiting', sid: 's1', loopId: 'l', ts: '2026-11-28T00:00:00.000Z', behind: 'another host' });
    print({ type: 'waiting', sid: 's1', loopId: 'l', ts: '2026-11-28T00:00:00.000Z', behind: 'another call' });
    expect(io.err).toBe(`  ${waitingText('s1', 'another host')}\n  ${waitingText('s1', 'another call')}\n`);
    expect(waitingText('s1', 'another host')).toBe('waiting: another host holds session s1 (a host that died holds it until its lease runs out, 15 s by default)');
  });
});
