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
    expect(waitingText('s1', 'another host')).toBe('waiting: another host holds session s1 (a host that died holds it until its lease runs out: 15 s for askloop run or resume, --lease-ms, 30 s by default, for askloop worker)');
  });
});

describe('the lines of a child session', () => {
  it('carry the asked agent and the child session id, and the parent lines stay as they were', () => {
    const io = captureIo();
    const print = progressLines(io);
    const base = { loopId: 'l', ts: '2026-11-28T00:00:00.000Z' };
    const decision = (sid: string, turnIndex: number) =>
      ({ type: 'decision', sid, ...base, turnIndex, decision: { kind: 'CONTINUE' }, log: {}, record: { phase: 'decided' } }) as unknown as Parameters<typeof print>[0];
    print({ type: 'loop-start', sid: 'parent-1', ...base, agent: 'boss', model: 'scripted:m', resumed: false });
    print({ type: 'loop-start', sid: '0123456789abcdef', ...base, agent: 'researcher', model: 'scripted:m', resumed: false, parentSid: 'parent-1' });
    print(decision('0123456789abcdef', 1));
    print(decision('parent-1', 1));
    expect(io.err).toBe('  [ask researcher 01234567] turn 1: CONTINUE\n  turn 1: CONTINUE\n');
  });
});
