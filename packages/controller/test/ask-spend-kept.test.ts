/**
 * What an `ask`'s child loop spent is the asking loop's, whatever the child's
 * end (README, `ask`): its token and cost ceilings count it. Two ends lost it:
 * a run that ended while the child still worked — out of its time, or
 * cancelled — recorded the ask without the child's spend (the record was
 * copied before the child, which the run's end cancels, said what it had
 * spent); and `resume` of a turn cancelled after its ask dropped the stopped
 * run's asks, so the run made again asked with the whole budget again. Real
 * sandbox, scripted models, memory store.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 2 });
afterAll(() => pool.close());
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
/** A reply that reports spending 100 + 100 tokens, after `delayMs`. */
const spending = (text: string, delayMs = 0) => ({ text, usage: { inputTokens: 100, outputTokens: 100 }, delayMs });
const cheap = (text: string) => ({ text, usage: { inputTokens: 1, outputTokens: 1 } });

/** A child that spends 200 tokens on its first turn, then answers its second only after 5 s. */
const slowChild = [spending(program('emit "one"')), spending(program('emit "<<<LOOP:DONE>>> two"'), 5000)];

describe("an ask's child spend", () => {
  it('is recorded when the run ran out of time while the child worked, and counted in the result', async () => {
    const store = createMemoryTranscriptStore();
    const replies = { parent: [cheap(program('ask "child", "work" into answer', 'emit "<<<LOOP:DONE>>> " + answer'))], child: slowChild };
    const team = { parent: { name: 'parent', model: 'scripted:parent', asks: ['child'], quotas: { wallMs: 1000 } }, child: { name: 'child', model: 'scripted:child' } };
    const loop = createAskLoop({ plugins: [testPlugin(replies, new Map(), team)], store, pool });
    const result = await loop.run({ agent: 'parent', task: 'x' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_TIMEOUT', usage: { inputTokens: 101, outputTokens: 101 } });
    const [turn] = await store.listTurns(result.sid);
    // No outcome (the run never saw one), and what the child spent before its cancel.
    expect(turn?.asks).toEqual([{ index: 0, agent: 'child', sid: expect.any(String), usage: { inputTokens: 100, outputTokens: 100, costUsd: 0 } }]);
    expect(await store.getSession(turn?.asks?.[0]?.sid as string)).toMatchObject({ status: 'halted', lastDecision: { reason: 'ERR_CANCELLED' } });
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null });
    await loop.close();
  });

  it('is recorded when the caller cancelled the run while the child worked', async () => {
    const store = createMemoryTranscriptStore();
    const replies = { parent: [cheap(program('ask "child", "work" into answer', 'emit "<<<LOOP:DONE>>> " + answer'))], child: slowChild };
    const team = { parent: { name: 'parent', model: 'scripted:parent', asks: ['child'], quotas: { wallMs: 20_000 } }, child: { name: 'child', model: 'scripted:child' } };
    const loop = createAskLoop({ plugins: [testPlugin(replies, new Map(), team)], store, pool });
    const cancel = new AbortController();
    let parentSid: string | undefined;
    // Cancelled once the child decided its first turn (it spent 200 tokens and waits for its second reply).
    const result = await loop.run({ agent: 'parent', task: 'x', signal: cancel.signal, onEvent: (event) => {
      if (event.type === 'loop-start' && parentSid === undefined) parentSid = event.sid;
      if (event.type === 'decision' && event.sid !== parentSid) cancel.abort();
    } });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED', usage: { inputTokens: 101, outputTokens: 101 } });
    const [turn] = await store.listTurns(result.sid);
    expect(turn?.asks).toEqual([{ index: 0, agent: 'child', sid: expect.any(String), usage: { inputTokens: 100, outputTokens: 100, costUsd: 0 } }]);
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null });
    await loop.close();
  });

  it("stays counted when resume runs a turn cancelled after its ask again: the new run's ask does not get the whole budget again", async () => {
    const store = createMemoryTranscriptStore();
    // The child spends 200 tokens at once; the parent's program then waits, and is cancelled there.
    const replies = { parent: [cheap(program('ask "child", "work" into answer', 'call tool.test.Sleep(5000)', 'emit "<<<LOOP:DONE>>> " + answer'))], child: [spending(program('emit "<<<LOOP:DONE>>> first"')), spending(program('emit "<<<LOOP:DONE>>> second"'))] };
    const team = { parent: { name: 'parent', model: 'scripted:parent', asks: ['child'], policy: { allow: ['tool.test.*'] }, quotas: { wallMs: 20_000 }, ceilings: { tokens: 150 } }, child: { name: 'child', model: 'scripted:child' } };
    const loop = createAskLoop({ plugins: [testPlugin(replies, new Map(), team)], store, pool });
    const cancel = new AbortController();
    let parentSid: string | undefined;
    const first = await loop.run({ agent: 'parent', task: 'x', signal: cancel.signal, onEvent: (event) => {
      if (event.type === 'loop-start' && parentSid === undefined) parentSid = event.sid;
      if (event.type === 'decision' && event.sid !== parentSid) setTimeout(() => cancel.abort(), 100);
    } });
    expect(first).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED', usage: { inputTokens: 101, outputTokens: 101 } });
    // 202 tokens of a 150 ceiling are spent: the run made again starts no child (it used to start a second one,
    // spend 200 more and finish DONE with 202 counted).
    const resumed = await loop.resume(first.sid);
    expect(resumed).toMatchObject({ status: 'HALT', reason: 'ERR_BUDGET', usage: { inputTokens: 101, outputTokens: 101 } });
    const [turn] = await store.listTurns(first.sid);
    expect(turn).toMatchObject({ reruns: 1, usage: { inputTokens: 101, outputTokens: 101 } });
    expect(turn?.asks?.[0]?.error).toMatchObject({ code: 'LOOP_ASK_FAILED', message: expect.stringContaining('has spent its token ceiling') });
    expect((await store.listSessions()).filter((session) => session.parentSid === first.sid)).toHaveLength(1);
    expect(await loop.replay(first.sid)).toMatchObject({ matched: true, divergence: null });
    await loop.close();
  });
});
