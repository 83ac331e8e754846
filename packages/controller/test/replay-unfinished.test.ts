/**
 * Replay of a session that can still go on: one driven by `step` and still
 * running, one whose last turn is undecided, and one whose last turn was
 * cancelled (in the model call, in its program, while it waited for a slot to
 * run in, or as it was being decided) matches its recording as far as the
 * recording goes; a cancelled turn whose program does something else before
 * its cancel is still a divergence.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import type { LoopEvent } from '../src/events/loop-event.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 2 });
afterAll(() => pool.close());
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.test.*', 'tool.str.*'] } };
const matched = (turns: number) => ({ matched: true, divergence: null, turns });

describe('replay of a session that is still running', () => {
  it('matches a session stepped twice as far as it went, without running a turn the recording does not have', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit tool.str.ToUpper("one")'), program('emit "two"'), program('emit "three"')] })], store, pool });
    const sid = await loop.create({ agent, task: 'steps' });
    await loop.step(sid);
    expect(await loop.step(sid)).toMatchObject({ status: 'RUNNING', turns: 2 });
    expect(await loop.replay(sid)).toMatchObject(matched(2));
    await loop.close();
  });

  it('compares the decided turns of a session whose last turn is still under way', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "one"'), program('emit "two"')] })], store, pool });
    const sid = await loop.create({ agent, task: 'under way' });
    await loop.step(sid);
    // Turn 2 as a host stepping it now (or one that died mid-turn) left it: asked, not answered.
    const [first] = await store.listTurns(sid);
    if (first === undefined) throw new Error('no turn 1');
    const { decision: _decision, endedAt: _endedAt, reply: _reply, ...asking } = first;
    await store.saveTurn({ ...asking, turnIndex: 2, phase: 'asking', emits: [], output: '', toolCalls: [], digest: null });
    expect(await loop.replay(sid)).toMatchObject(matched(1));
    await loop.close();
  });
});

describe('replay of a session whose last turn was cancelled', () => {
  /** Runs session turns with `replies`, the last one under a signal that `cancelWhen` aborts; returns the replay. */
  async function cancelledThenReplayed(replies: Parameters<typeof testPlugin>[0]['m'], cancelWhen: (event: LoopEvent, cancel: () => void) => void, options: { readonly maxConcurrentRuns?: number } = {}) {
    const store = createMemoryTranscriptStore();
    const controller = new AbortController();
    const onEvent = (event: LoopEvent) => cancelWhen(event, () => controller.abort());
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool, onEvent, ...options });
    const sid = await loop.create({ agent, task: 'cancelled' });
    expect(await loop.step(sid)).toMatchObject({ status: 'RUNNING' });
    const halted = await loop.step(sid, { signal: controller.signal });
    expect(halted).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED', turns: 2 });
    const report = await loop.replay(sid);
    return { store, sid, loop, halted, report };
  }

  it('matches a turn cancelled while the model answered', async () => {
    const { loop, halted, report } = await cancelledThenReplayed([program('emit "one"'), { text: program('emit "two"'), delayMs: 5_000 }], (event, cancel) => {
      if (event.type === 'phase' && event.turnIndex === 2 && event.phase === 'asking') setTimeout(cancel, 30);
    });
    expect(halted.failure).toMatchObject({ kind: 'cancelled', code: 'PROVIDER_ABORTED' });
    expect(report).toMatchObject(matched(2));
    await loop.close();
  });

  it('matches a turn cancelled in its program after a tool call', async () => {
    const { store, sid, loop, report } = await cancelledThenReplayed([program('emit "one"'), program('emit tool.str.ToUpper("a")', 'call tool.test.Sleep(5000)', 'emit "late"')], (event, cancel) => {
      if (event.type === 'tool-call' && event.turnIndex === 2) cancel();
    });
    expect((await store.listTurns(sid))[1]).toMatchObject({ failure: { kind: 'cancelled', code: 'SCRIPT_ABORTED' }, toolCalls: [{ name: 'tool.str.toupper' }] });
    expect(report).toMatchObject(matched(2));
    await loop.close();
  });

  it('matches a turn cancelled in its program after its last tool call, whatever the program did after it', async () => {
    // The program ends right after its call: the replay cuts it where the recording did, not at a later call.
    const { loop, report } = await cancelledThenReplayed([program('emit "one"'), program('emit tool.str.ToUpper("a")', 'emit "no more calls"')], (event, cancel) => {
      if (event.type === 'tool-call' && event.turnIndex === 2) cancel();
    });
    expect(report).toMatchObject(matched(2));
    await loop.close();
  });

  it('matches a turn cancelled in its program before any call ended', async () => {
    const { loop, report } = await cancelledThenReplayed([program('emit "one"'), program('call tool.test.Sleep(5000)', 'emit "late"')], (event, cancel) => {
      if (event.type === 'phase' && event.turnIndex === 2 && event.phase === 'executing') setTimeout(cancel, 50);
    });
    expect(report).toMatchObject(matched(2));
    await loop.close();
  });

  it('matches a turn cancelled after its program ran, before it was decided', async () => {
    const { halted, loop, report } = await cancelledThenReplayed([program('emit "one"'), program('emit tool.str.ToUpper("a")')], (event, cancel) => {
      if (event.type === 'phase' && event.turnIndex === 2 && event.phase === 'scanning') cancel();
    });
    expect(halted.failure).toBeNull();
    expect(report).toMatchObject(matched(2));
    await loop.close();
  });

  /** Runs a session whose program holds `loop`'s one run slot; resolves once it holds it, with what lets it go. */
  async function holdTheSlot(loop: ReturnType<typeof createAskLoop>): Promise<() => Promise<unknown>> {
    let holding = (): void => {};
    const held = new Promise<void>((resolve) => (holding = resolve));
    const stop = new AbortController();
    const busyAgent = { ...agent, name: 'busy', model: 'scripted:busy', ceilings: { maxTurns: 1 } };
    const busy = loop.run({ agent: busyAgent, task: 'holds the slot', signal: stop.signal, onEvent: (event) => (event.type === 'phase' && event.phase === 'executing' ? holding() : undefined) });
    await held;
    return () => {
      stop.abort();
      return busy;
    };
  }
  const busyReplies = [program('call tool.test.Sleep(5000)')];

  it('matches a turn cancelled while it waited for a slot to run in', async () => {
    const store = createMemoryTranscriptStore();
    const controller = new AbortController();
    const replies = { m: [program('emit "one"'), program('emit "two"')], busy: busyReplies };
    // One slot: a session running a slow program holds it while the other's turn 2 waits.
    const loop = createAskLoop({ plugins: [testPlugin(replies)], store, pool, maxConcurrentRuns: 1 });
    const sid = await loop.create({ agent, task: 'waits' });
    await loop.step(sid);
    const letGo = await holdTheSlot(loop);
    setTimeout(() => controller.abort(), 50);
    expect(await loop.step(sid, { signal: controller.signal })).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED', failure: { code: 'SCRIPT_ABORTED' } });
    // The replay takes a slot for turn 1, as runs do.
    await letGo();
    expect((await store.listTurns(sid))[1]?.failure?.message).toContain('waited for a slot');
    expect(await loop.replay(sid)).toMatchObject(matched(2));
    await loop.close();
  });

  it('matches a turn approved, then cancelled while it waited for a slot to run in', async () => {
    const store = createMemoryTranscriptStore();
    const controller = new AbortController();
    const replies = { m: [program('call tool.test.Deploy("prod")')], busy: busyReplies };
    const loop = createAskLoop({ plugins: [testPlugin(replies)], store, pool, maxConcurrentRuns: 1 });
    const sid = await loop.create({ agent, task: 'deploy' });
    expect(await loop.step(sid)).toMatchObject({ status: 'PAUSED', reason: 'AWAITING_APPROVAL' });
    const letGo = await holdTheSlot(loop);
    setTimeout(() => controller.abort(), 50);
    expect(await loop.approve(sid, { signal: controller.signal })).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED', failure: { code: 'SCRIPT_ABORTED' } });
    await letGo();
    expect((await store.listTurns(sid))[0]).toMatchObject({ approval: { state: 'approved' }, failure: { message: expect.stringContaining('waited for a slot') } });
    expect(await loop.replay(sid)).toMatchObject(matched(1));
    await loop.close();
  });

  it('still reports a cancelled turn whose program made another call before the cancel than recorded', async () => {
    const { store, sid, loop } = await cancelledThenReplayed([program('emit "one"'), program('emit tool.str.ToUpper("a")', 'call tool.test.Sleep(5000)')], (event, cancel) => {
      if (event.type === 'tool-call' && event.turnIndex === 2) cancel();
    });
    const turns = await store.listTurns(sid);
    const second = turns[1];
    if (second === undefined) throw new Error('no turn 2');
    await store.saveTurn({ ...second, toolCalls: second.toolCalls.map((call) => ({ ...call, args: ['b'] })) });
    const report = await loop.replay(sid);
    expect(report).toMatchObject({ matched: false, divergence: { turnIndex: 2 } });
    expect(report.divergence?.replayedFailure?.message).toContain('LOOP_REPLAY_DIVERGED');
    await loop.close();
  });

  it('still reports a cancelled turn whose program made fewer calls than recorded', async () => {
    const { store, sid, loop } = await cancelledThenReplayed([program('emit "one"'), program('emit tool.str.ToUpper("a")', 'call tool.test.Sleep(5000)')], (event, cancel) => {
      if (event.type === 'tool-call' && event.turnIndex === 2) cancel();
    });
    const second = (await store.listTurns(sid))[1];
    if (second === undefined) throw new Error('no turn 2');
    // The recording says the program made two calls before the cancel; replayed, its second call is another one.
    const extra = { ...second.toolCalls[0], index: 1, name: 'tool.str.tolower', displayName: 'tool.str.ToLower' } as (typeof second.toolCalls)[number];
    await store.saveTurn({ ...second, toolCalls: [...second.toolCalls, extra] });
    expect(await loop.replay(sid)).toMatchObject({ matched: false, divergence: { turnIndex: 2 } });
    await loop.close();
  });
});
