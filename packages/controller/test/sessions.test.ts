/**
 * Sessions end to end: single flight per session with concurrency across
 * sessions (from the order of events and the recorded start/end times, on
 * the memory store and on a SQLite file), step, cancel and resume,
 * and resume after a crash mid-turn without double effects.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { tallyOf } from '../src/decide/loop-tally.ts';
import { loopResult } from '../src/loop/loop-result.ts';
import type { TurnRecord } from '../src/loop/turn-record.ts';
import type { LoopEvent } from '../src/events/loop-event.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import type { TranscriptStore } from '../src/store/transcript-store.ts';
import { defineProvider, estimateTokens, ProviderError } from '@askloop/providers';
import { definePlugin } from '../src/plugin/plugin.ts';
import { envelope, testPlugin, type EffectLog } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 2 });
const dir = mkdtempSync(join(tmpdir(), 'askloop-controller-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const slow = (text: string) => ({ text, delayMs: 60 });
const agent = { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.test.*', 'tool.str.*'] } };

/** `store`, dying once right after a program ran (its decided turn is never saved): the host "crashed" mid-turn. */
function diesAtFirstDecision(store: TranscriptStore): TranscriptStore {
  let crash = true;
  return {
    ...store,
    async saveTurn(record, session) {
      if (crash && record.phase === 'decided') {
        crash = false;
        throw new Error('host killed');
      }
      return store.saveTurn(record, session);
    },
  };
}
const span = (turn: TurnRecord) => [Date.parse(turn.startedAt), Date.parse(turn.endedAt ?? turn.startedAt)] as const;

describe('sessions', () => {
  // The memory store, and a SQLite file that each controller opens on its own connection (as two hosts would).
  const storesFor = {
    memory: () => {
      const store = createMemoryTranscriptStore();
      return [store, store] as const;
    },
    sqlite: () => {
      const file = join(dir, `concurrent-${Math.random().toString(36).slice(2)}.db`);
      return [createSqliteTranscriptStore(file), createSqliteTranscriptStore(file)] as const;
    },
  };

  it.each(Object.keys(storesFor) as (keyof typeof storesFor)[])('runs turns of one session one at a time while other sessions proceed (%s store)', async (kind) => {
    const [store, otherStore] = storesFor[kind]();
    const replies = [slow(program('emit "one"')), slow(program('emit "two"')), slow(program('emit "<<<LOOP:DONE>>> three"'))];
    // Every turn start and decision of both sessions, in the order they happened.
    const log: string[] = [];
    const onEvent = (event: LoopEvent) => {
      if (event.type === 'turn-start' || event.type === 'decision') log.push(`${event.sid}:${event.type}:${event.turnIndex}`);
    };
    // Session b is driven by two callers at once (run and step), beside session c on another controller.
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool, onEvent });
    const otherLoop = createAskLoop({ plugins: [testPlugin({ m: replies })], store: otherStore, pool, onEvent });
    const start = loop.run({ agent, task: 'b', sid: 'b' });
    const other = otherLoop.run({ agent, task: 'c', sid: 'c' });
    const extra = (async () => {
      while ((await store.getSession('b')) === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
      return loop.step('b');
    })();
    const [b, c, stepped] = await Promise.all([start, other, extra]);
    expect(stepped.sid).toBe('b');
    expect(b.status).toBe('DONE');
    expect(c.status).toBe('DONE');
    // Session b: each turn started only after the previous one was decided, by whichever caller ran it.
    const ofB = log.filter((entry) => entry.startsWith('b:'));
    expect(ofB).toEqual(['b:turn-start:1', 'b:decision:1', 'b:turn-start:2', 'b:decision:2', 'b:turn-start:3', 'b:decision:3']);
    const turnsB = await store.listTurns('b');
    for (let index = 1; index < turnsB.length; index += 1) {
      expect(span(turnsB[index - 1] as TurnRecord)[1]).toBeLessThanOrEqual(span(turnsB[index] as TurnRecord)[0]);
    }
    // Sessions b and c proceeded together: c's turns started while b was still between its first and last turn.
    const firstB = log.indexOf('b:turn-start:1');
    const lastB = log.indexOf('b:decision:3');
    expect(log.slice(firstB, lastB).some((entry) => entry.startsWith('c:turn-start'))).toBe(true);
    const turnsC = await otherStore.listTurns('c');
    const [bStart, bEnd] = [span(turnsB[0] as TurnRecord)[0], span(turnsB.at(-1) as TurnRecord)[1]];
    const [cStart, cEnd] = [span(turnsC[0] as TurnRecord)[0], span(turnsC.at(-1) as TurnRecord)[1]];
    expect(bStart).toBeLessThan(cEnd);
    expect(cStart).toBeLessThan(bEnd);
    // Both controllers' sessions are in the one store (the SQLite file, seen from either connection).
    expect((await store.listSessions()).map((session) => session.sid).sort()).toEqual(['b', 'c']);
    await loop.close();
    if (otherStore !== store) await otherLoop.close();
  });

  it('two hosts on one SQLite file never run turns of one session at once (the store\'s lease)', async () => {
    const file = join(dir, 'two-hosts.db');
    const log: string[] = [];
    const hostLoop = (host: string, reply: string, busy: 'wait' | 'reject' = 'wait') =>
      createAskLoop({
        plugins: [testPlugin({ m: [slow(reply)] })],
        store: createSqliteTranscriptStore(file),
        pool,
        busy,
        onEvent: (event) => {
          if (event.type === 'turn-start' || event.type === 'decision') log.push(`${host}:${event.type}:${event.turnIndex}`);
        },
      });
    const hostA = hostLoop('a', program('emit "from a"'));
    const hostB = hostLoop('b', program('emit "from b"'));
    const sid = await hostA.create({ agent, task: 'shared' });
    // Both hosts step the session at the same moment: one runs turn 1, the other waits for the lease and runs turn 2.
    const [first, second] = await Promise.all([hostA.step(sid), hostB.step(sid)]);
    expect([first.status, second.status]).toEqual(['RUNNING', 'RUNNING']);
    expect(log.map((entry) => entry.slice(2))).toEqual(['turn-start:1', 'decision:1', 'turn-start:2', 'decision:2']);
    expect(new Set(log.map((entry) => entry[0]))).toEqual(new Set(['a', 'b']));
    const reader = createSqliteTranscriptStore(file, { readOnly: true });
    const turns = await reader.listTurns(sid);
    await reader.close();
    expect(turns.map((turn) => [turn.turnIndex, turn.phase])).toEqual([[1, 'decided'], [2, 'decided']]);
    expect(turns.map((turn) => turn.output).sort()).toEqual(['from a\n', 'from b\n']);

    // A host in reject mode is refused while another host's turn of the session runs.
    const hostC = hostLoop('c', program('emit "from c"'), 'reject');
    const hostD = hostLoop('d', program('emit "from d"'));
    const started = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (log.includes('d:turn-start:3')) {
          clearInterval(check);
          resolve();
        }
      }, 1);
    });
    const running = hostD.step(sid);
    await started;
    await expect(hostC.step(sid)).rejects.toMatchObject({ code: 'LOOP_SESSION_BUSY', message: expect.stringContaining('another host') });
    expect(await running).toMatchObject({ status: 'RUNNING', turns: 3 });
    for (const loop of [hostA, hostB, hostC, hostD]) await loop.close();
  });

  it.each(['one controller', 'two hosts on one SQLite file'])('a caller that gives up waiting for a turn in flight (%s) changes nothing', async (where) => {
    const file = join(dir, `give-up-${where.length}.db`);
    const replies = [{ text: program('emit "one"'), delayMs: 1000 }, program('emit "<<<LOOP:DONE>>> two"')];
    const hostA = createAskLoop({ plugins: [testPlugin({ m: replies })], store: createSqliteTranscriptStore(file), pool });
    const hostB = where === 'one controller' ? hostA : createAskLoop({ plugins: [testPlugin({ m: [] })], store: createSqliteTranscriptStore(file), pool });
    const sid = await hostA.create({ agent, task: 'shared' });
    let runningDone = false;
    const running = hostA.resume(sid).finally(() => (runningDone = true));
    // Turn 1 is in flight (its model answers after 1 s) when the other caller asks for a step.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const waits: string[] = [];
    const onEvent = (event: LoopEvent) => {
      if (event.type === 'waiting') waits.push(event.behind);
    };
    await expect(hostB.step(sid, { signal: AbortSignal.timeout(50), onEvent })).rejects.toMatchObject({ code: 'LOOP_CANCELLED' });
    // It said it waited, and behind whom, once.
    expect(waits).toEqual([where === 'one controller' ? 'another call' : 'another host']);
    expect(runningDone).toBe(false);
    // The caller it waited for drives the session to its end, undisturbed by the cancelled call.
    expect(await running).toMatchObject({ status: 'DONE', result: 'two', turns: 2 });
    for (const loop of new Set([hostA, hostB])) await loop.close();
  });

  it('a host in reject mode runs its own session turn after turn, refusing only a second caller', async () => {
    const store = createMemoryTranscriptStore();
    const replies = [program('emit "one"'), slow(program('emit "two"')), program('emit "<<<LOOP:DONE>>> three"')];
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool, busy: 'reject' });
    const sid = await loop.create({ agent, task: 'r' });
    let settled = false;
    const started = loop.resume(sid).finally(() => (settled = true));
    // The second turn is in flight: a second caller is refused, and the first goes on to DONE.
    while (!settled && (await store.listTurns(sid)).length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    // Saying how to go on (walkthrough: it did not).
    await expect(loop.step(sid)).rejects.toMatchObject({ code: 'LOOP_SESSION_BUSY', message: `a turn of session ${sid} is already in flight here; call again once it has ended, or create the loop with busy: 'wait' to queue behind it` });
    await expect(started).resolves.toMatchObject({ status: 'DONE', turns: 3 });
    await loop.close();
  });

  it("counts a session's earlier tool calls against its per-session limit in another controller", async () => {
    const store = createMemoryTranscriptStore();
    const limited = { ...agent, policy: { ...agent.policy, limits: { perSession: 3, tools: { 'tool.test.Bump': { perSession: 2 } } } } };
    const replies = [program('set a = tool.test.Bump("k")', 'set b = tool.test.Bump("k")', 'emit "two"'), program('set c = tool.test.Bump("k")', 'emit "three"')];
    const effects: EffectLog = new Map();
    const first = createAskLoop({ plugins: [testPlugin({ m: replies }, effects)], store, pool });
    const sid = await first.create({ agent: limited, task: 'limits' });
    await first.step(sid);
    await first.close();
    // A new controller (a new process, `askloop resume`): the third Bump is over the tool's limit of 2 per session.
    const second = createAskLoop({ plugins: [testPlugin({ m: replies.slice(1) }, effects)], store, pool });
    await second.step(sid);
    const turns = await store.listTurns(sid);
    expect(turns[1]?.toolCalls.map((call) => call.error?.code ?? 'ok')).toEqual(['SCRIPT_TOOL_DENIED']);
    expect(turns[1]?.toolCalls[0]?.error?.message).toContain('[POLICY_CALL_LIMIT]');
    expect(effects.get('k')).toBe(2);
    await second.close();
  });

  it('steps exactly one turn at a time', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "one"'), program('emit "<<<LOOP:DONE>>> two"')] })], store, pool });
    const sid = await loop.create({ agent, task: 's' });
    expect(await store.listTurns(sid)).toEqual([]);
    const afterOne = await loop.step(sid);
    expect(afterOne).toMatchObject({ status: 'RUNNING', turns: 1 });
    const afterTwo = await loop.step(sid);
    expect(afterTwo).toMatchObject({ status: 'DONE', result: 'two', turns: 2 });
    await loop.close();
  });

  it('keeps per-session models for at most sessionCacheSize sessions (a worker stepping sessions others finish)', async () => {
    const created: string[] = [];
    const base = testPlugin({ m: [program('emit "one"')] });
    const scripted = base.providers?.scripted;
    if (scripted === undefined) throw new Error('the test plugin has no scripted provider');
    const counting = { ...base, providers: { scripted: { ...scripted, languageModel: (id: string) => (created.push(id), scripted.languageModel(id)) } } };
    const loop = createAskLoop({ plugins: [counting], store: createMemoryTranscriptStore(), pool, sessionCacheSize: 2 });
    const first = await loop.create({ agent, task: 's1' });
    await loop.step(first);
    // Two more sessions, stepped elsewhere or never: the first session's model is dropped, not kept forever.
    await loop.create({ agent, task: 's2' });
    await loop.create({ agent, task: 's3' });
    const before = created.length;
    await loop.step(first);
    expect(created.length).toBe(before + 1);
    await expect(Promise.resolve().then(() => createAskLoop({ plugins: [base], store: createMemoryTranscriptStore(), sessionCacheSize: 0 }))).rejects.toMatchObject({ code: 'LOOP_CONFIG_INVALID' });
    await loop.close();
  });

  it('catches the session row up on resume when the host died after saving the decided turn', async () => {
    const memory = createMemoryTranscriptStore();
    let crash = true;
    // A store that saves the DONE turn but not the session row with it (as a store written before the two were
    // one transaction could), then the host "dies".
    const crashing: TranscriptStore = {
      ...memory,
      async saveTurn(record, session) {
        if (crash && session?.status === 'done') {
          crash = false;
          await memory.saveTurn(record);
          throw new Error('host killed');
        }
        return memory.saveTurn(record, session);
      },
    };
    const first = createAskLoop({ plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> ok"')] })], store: crashing, pool });
    await expect(first.run({ agent, task: 'x', sid: 'late-row' })).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR' });
    expect(await memory.getSession('late-row')).toMatchObject({ status: 'running' });
    const second = createAskLoop({ plugins: [testPlugin({ m: [] })], store: memory, pool });
    expect(await second.resume('late-row')).toMatchObject({ status: 'DONE', result: 'ok', turns: 1 });
    expect(await memory.getSession('late-row')).toMatchObject({ status: 'done', turns: 1, lastDecision: { kind: 'DONE', result: 'ok' } });
    await first.close().catch(() => undefined);
    await second.close();
  });

  it('halts ERR_CANCELLED on abort and resumes the same session', async () => {
    const store = createMemoryTranscriptStore();
    const controller = new AbortController();
    const replies = [program('emit "one"'), { text: program('emit "<<<LOOP:DONE>>> never"'), delayMs: 5_000 }, program('emit "<<<LOOP:DONE>>> resumed"')];
    const loop = createAskLoop({
      plugins: [testPlugin({ m: replies })],
      store,
      pool,
      onEvent: (event) => {
        if (event.type === 'turn-start' && event.turnIndex === 2) setTimeout(() => controller.abort(), 20);
      },
    });
    const cancelled = await loop.run({ agent, task: 'x', signal: controller.signal });
    expect(cancelled).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    const resumed = await loop.resume(cancelled.sid);
    expect(resumed).toMatchObject({ status: 'DONE', result: 'resumed', turns: 2 });
    // The re-run turn replaced the cancelled one in the session's tally, as a rebuild from the records gives.
    const turns = await store.listTurns(cancelled.sid);
    expect((await store.getSession(cancelled.sid))?.tally).toEqual(tallyOf(turns));
    expect(resumed).toEqual(loopResult(cancelled.sid, turns));
    await loop.close();
  });

  it('resumes a session whose model call failed (HALT ERR_PROVIDER): the turn asks the model again; another HALT stays final', async () => {
    let calls = 0;
    let watched: string | undefined;
    let seenWhileAsking: unknown;
    // Turn 1 answers, turn 2's call fails (retries off: one attempt), and asked again it answers.
    const flaky = defineProvider({
      name: 'flaky',
      // Priced so that a call of 1 token in and 1 out costs $3: the cost the metrics count comes from each reply.
      settings: { retry: { maxRetries: 0 }, prices: { m: { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } } },
      attempt: () => async () => {
        calls += 1;
        // While the resumed call is under way, a reader sees the session running and its turn asking, not the halt.
        if (calls === 3 && watched !== undefined) seenWhileAsking = { status: (await store.getSession(watched))?.status, phase: (await store.lastTurn(watched))?.phase };
        if (calls === 2) {
          await new Promise((resolve) => setTimeout(resolve, 60));
          throw new ProviderError({ code: 'PROVIDER_SERVER', message: 'upstream 503' });
        }
        return { text: calls === 1 ? program('emit "one"') : program('emit "<<<LOOP:DONE>>> after the outage"'), usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop', raw: {} };
      },
    });
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ bad: [program('emit (')] }), definePlugin({ name: 'flaky', specificationVersion: 'v1', providers: { flaky } })], store, pool });
    const halted = await loop.run({ agent: { ...agent, model: 'flaky:m' }, task: 'x' });
    expect(halted).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', turns: 2, failure: { code: 'PROVIDER_SERVER' } });
    expect((await store.getSession(halted.sid))?.status).toBe('halted');
    watched = halted.sid;
    const resumed = await loop.resume(halted.sid);
    expect(seenWhileAsking).toEqual({ status: 'running', phase: 'asking' });
    expect(resumed).toMatchObject({ status: 'DONE', result: 'after the outage', turns: 2, failure: null });
    expect(calls).toBe(3);
    const turns = await store.listTurns(halted.sid);
    expect((await store.getSession(halted.sid))?.tally).toEqual(tallyOf(turns));
    expect(resumed).toEqual(loopResult(halted.sid, turns));
    // The failed call's time stays spent: the loop's wall clock counts both runs of turn 2.
    const { earlier = 0, total = 0 } = turns[1]!.timings;
    expect(earlier).toBeGreaterThanOrEqual(55);
    expect(total).toBeGreaterThan(earlier);
    expect(await loop.replay(halted.sid)).toMatchObject({ matched: true });
    // Turn 2 counts once, and once more as a rerun; the two calls that answered are billed, the failed one said nothing.
    expect(turns[1]?.reruns).toBe(1);
    expect(loop.metrics()).toMatchObject({ turns: 2, reruns: 1, decisions: { CONTINUE: 1, HALT: 1, DONE: 1 }, inputTokens: 2, outputTokens: 2, costUsd: 6 });
    expect(turns[1]?.usage.costUsd).toBe(3);
    // A HALT the reply caused is final: resume reports it again and asks nothing (the script has no second reply).
    const syntax = await loop.run({ agent: { ...agent, model: 'scripted:bad' }, task: 'y' });
    expect(syntax).toMatchObject({ status: 'HALT', reason: 'ERR_SYNTAX' });
    expect(await loop.resume(syntax.sid)).toEqual(syntax);
    await loop.close();
  });

  it("counts a call cut short after it streamed part of a reply, live, after the turn's rerun, in metrics() and in replay", async () => {
    let calls = 0;
    const events: LoopEvent[] = [];
    const cutShort = defineProvider({
      name: 'cut',
      settings: { retry: { maxRetries: 0 }, prices: { m: { inputPerMillion: 1_000_000, outputPerMillion: 1_000_000 } } },
      attempt: () => async (request) => {
        calls += 1;
        if (calls === 2) {
          // Half an envelope, then the connection drops: billed by the provider, but no usage ever reported.
          request.onText?.(program('emit "a long answer that never ends"').slice(0, 80));
          throw new ProviderError({ code: 'PROVIDER_SERVER', message: 'connection reset' });
        }
        return { text: program(`emit "call ${calls}"`), usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop', raw: {} };
      },
    });
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({}), definePlugin({ name: 'cut', specificationVersion: 'v1', providers: { cut: cutShort } })], store, pool, onEvent: (event) => events.push(event) });
    // 50 tokens: turn 1 spends 2; the cut call's estimate (the system text and envelope alone are hundreds) passes it.
    const halted = await loop.run({ agent: { ...agent, model: 'cut:m', ceilings: { tokens: 50 } }, task: 'x' });
    expect(halted).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', turns: 2 });
    const [, cut] = await store.listTurns(halted.sid);
    const spent = { inputTokens: estimateTokens(cut!.system) + estimateTokens(cut!.envelope), outputTokens: estimateTokens(program('emit "a long answer that never ends"').slice(0, 80)) };
    expect(spent.outputTokens).toBeGreaterThan(10);
    expect(cut?.usage).toMatchObject({ ...spent, costUsd: spent.inputTokens + spent.outputTokens });
    // It used to count 2 tokens: the failed call spent nothing as far as the loop knew.
    expect(halted.usage).toMatchObject({ inputTokens: 1 + spent.inputTokens, outputTokens: 1 + spent.outputTokens });
    expect(events.filter((event) => event.type === 'call-failed')).toEqual([expect.objectContaining({ turnIndex: 2, code: 'PROVIDER_SERVER', ...spent })]);
    expect(loop.metrics()).toMatchObject({ inputTokens: 1 + spent.inputTokens, outputTokens: 1 + spent.outputTokens });
    // Asked again, the turn answers, and keeps the cut call's spend beside its own: past the ceiling, the loop halts.
    const resumed = await loop.resume(halted.sid);
    expect(calls).toBe(3);
    expect(resumed).toMatchObject({ status: 'HALT', reason: 'ERR_BUDGET', turns: 2, usage: { inputTokens: 2 + spent.inputTokens, outputTokens: 2 + spent.outputTokens } });
    const turns = await store.listTurns(halted.sid);
    expect(turns[1]?.usage).toMatchObject({ inputTokens: 1 + spent.inputTokens, outputTokens: 1 + spent.outputTokens });
    expect((await store.getSession(halted.sid))?.tally).toEqual(tallyOf(turns));
    // $1 a token: each call's cost counted once, by its own event (the reply's is its own, not the turn's running total).
    const spentUsd = spent.inputTokens + spent.outputTokens;
    expect(loop.metrics()).toMatchObject({ inputTokens: 2 + spent.inputTokens, outputTokens: 2 + spent.outputTokens, costUsd: 4 + spentUsd });
    expect(turns[1]?.usage.costUsd).toBe(2 + spentUsd);
    expect(events.filter((event) => event.type === 'reply').map((event) => (event as { costUsd: number }).costUsd)).toEqual([2, 2]);
    // The replay's model answers only the turn's last call: the recording's spend still decides its ceiling.
    expect(await loop.replay(halted.sid)).toMatchObject({ matched: true });
    await loop.close();
  });

  it('keeps final the ERR_PROVIDER halts asking again cannot mend: a refused request, a decide hook halting after the program ran', async () => {
    let calls = 0;
    const refusing = defineProvider({
      name: 'refusing',
      settings: { retry: { maxRetries: 0 } },
      attempt: () => async () => {
        calls += 1;
        throw new ProviderError({ code: 'PROVIDER_BAD_REQUEST', message: 'prompt is too long' });
      },
    });
    const stopper = definePlugin({ name: 'stopper', specificationVersion: 'v1', hooks: { decide: () => ({ kind: 'HALT', reason: 'ERR_PROVIDER', message: 'quota of the upstream account' }) } });
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "ran"')] }), definePlugin({ name: 'refusing', specificationVersion: 'v1', providers: { refusing } }), stopper], store: createMemoryTranscriptStore(), pool });
    const refused = await loop.run({ agent: { ...agent, model: 'refusing:m' }, task: 'x' });
    expect(refused).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', failure: { code: 'PROVIDER_BAD_REQUEST' } });
    expect(await loop.resume(refused.sid)).toEqual(refused);
    expect(calls).toBe(1);
    const hooked = await loop.run({ agent, task: 'y' });
    expect(hooked).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', failure: null });
    expect(await loop.resume(hooked.sid)).toEqual(hooked);
    await loop.close();
  });

  it('resumes a turn cancelled while running from its recorded reply, without repeating its writes', async () => {
    const effects: EffectLog = new Map();
    const controller = new AbortController();
    const store = createMemoryTranscriptStore();
    const reply = program('set n = tool.test.Bump("c")', 'call tool.test.Sleep(300)', 'emit "<<<LOOP:DONE>>> bumped " + n');
    const loop = createAskLoop({
      plugins: [testPlugin({ m: [reply] }, effects)],
      store,
      pool,
      toolStorePath: join(dir, 'cancel.db'),
      onEvent: (event) => {
        if (event.type === 'tool-call' && event.call.name === 'tool.test.bump') controller.abort();
      },
    });
    const cancelled = await loop.run({ agent, task: 'x', signal: controller.signal });
    expect(cancelled).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    // The model has no reply left: the resumed turn must come from the record.
    const resumed = await loop.resume(cancelled.sid);
    expect(resumed).toMatchObject({ status: 'DONE', result: 'bumped 1', turns: 1 });
    expect(effects.get('c')).toBe(1);
    // The reply was paid for once: the rerun makes no model call, so the tokens count once.
    const [turn] = await store.listTurns(cancelled.sid);
    expect(turn).toMatchObject({ reruns: 1 });
    expect(turn?.usage.inputTokens).toBeGreaterThan(0);
    expect(loop.metrics()).toMatchObject({ turns: 1, reruns: 1, inputTokens: turn?.usage.inputTokens, outputTokens: turn?.usage.outputTokens });
    await loop.close();
  });

  it('counts each call of a turn cancelled and resumed once against a per-session limit', async () => {
    const effects: EffectLog = new Map();
    const controller = new AbortController();
    const store = createMemoryTranscriptStore();
    // Turn 1: a write (cut right after it), then a read; turn 2: two more writes, the second over the limit of 3.
    const first = program('set n = tool.test.Bump("c")', 'call tool.test.Sleep(50)', 'emit "bumped " + n');
    const second = program('on error do', '  emit "refused: " + system_error_code', '  clear_error', 'endon', 'set d = tool.test.Bump("d")', 'set e = tool.test.Bump("e")', 'emit "<<<LOOP:DONE>>> done"');
    const limited = { ...agent, policy: { ...agent.policy, limits: { perSession: 3 } } };
    const toolStorePath = join(dir, 'cancel-counted.db');
    const loop = createAskLoop({
      plugins: [testPlugin({ m: [first, second] }, effects)],
      store,
      pool,
      toolStorePath,
      onEvent: (event) => {
        if (event.type === 'tool-call' && event.call.name === 'tool.test.bump') controller.abort();
      },
    });
    const cancelled = await loop.run({ agent: limited, task: 'x', signal: controller.signal });
    expect(cancelled).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    const resumed = await loop.resume(cancelled.sid);
    expect(resumed).toMatchObject({ status: 'DONE', turns: 2 });
    // Turn 1 counts its write (replayed) and its read: 2 calls. Turn 2's first write is the third; its second is refused.
    expect([effects.get('c'), effects.get('d'), effects.get('e')]).toEqual([1, 1, undefined]);
    const turns = await store.listTurns(cancelled.sid);
    expect(turns[1]?.emits[0]).toBe('refused: SCRIPT_TOOL_DENIED');
    await loop.close();
  });

  it('resumes after a crash mid-turn a program that read a value and wrote with it: the read answers as it did', async () => {
    const toolStorePath = join(dir, 'tools-read-then-write.db');
    const memory = createMemoryTranscriptStore();
    const crashing = diesAtFirstDecision(memory);
    // The demo's claim pattern: read the version, write at that version, then read again (not journaled: no write after).
    const claim = program('set cur = tool.memory.Get("/jobs/x")', 'set out = tool.memory.CAS("/jobs/x", cur[1], "taken")', 'set now = tool.memory.Get("/jobs/x")', 'emit "<<<LOOP:DONE>>> claimed " + out[0] + " at " + out[1] + ", now " + now[1]');
    const claimer = { ...agent, policy: { allow: ['tool.memory.*'], grants: ['memory:read:/jobs/**', 'memory:write:/jobs/**'] } };
    const first = createAskLoop({ plugins: [testPlugin({ m: [claim] })], store: crashing, pool, toolStorePath });
    await expect(first.run({ agent: claimer, task: 'claim x', sid: 'claimer' })).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR' });
    expect((await memory.listTurns('claimer'))[0]?.phase).toBe('executing');
    await first.close().catch(() => undefined);

    const second = createAskLoop({ plugins: [testPlugin({ m: [] })], store: memory, pool, toolStorePath });
    const resumed = await second.resume('claimer');
    // It used to fail the CAS with TOOL_REPLAY_DIVERGED (the Get saw version 1, its own write's) and lose the turn's DONE.
    expect(resumed).toMatchObject({ status: 'DONE', result: 'claimed true at 1, now 1', turns: 1 });
    const [turn] = await memory.listTurns('claimer');
    expect(turn?.failure).toBeUndefined();
    expect(turn?.toolCalls.map((call) => [call.name, call.result])).toEqual([['tool.memory.get', [null, 0]], ['tool.memory.cas', [true, 1]], ['tool.memory.get', ['taken', 1]]]);
    expect(await second.replay('claimer')).toMatchObject({ matched: true });
    await second.close();
  });

  it("keeps the idempotence records of a session's last turn that wrote and of younger turns, not of its whole history", async () => {
    const toolStorePath = join(dir, 'tools-pruned.db');
    const claimer = { ...agent, policy: { allow: ['tool.memory.*'], grants: ['memory:read:/jobs/**', 'memory:write:/jobs/**'] } };
    const claimOnce = (last: boolean) => program('set cur = tool.memory.Get("/jobs/n")', 'set out = tool.memory.CAS("/jobs/n", cur[1], cur[1] + 1)', `emit "${last ? '<<<LOOP:DONE>>> ' : ''}at " + out[1]`);
    const readOnly = program('emit "saw " + tool.memory.Get("/jobs/n")[1]');
    // Ten seconds pass on this loop's clock after each turn: each turn's records are older than a retention of five by the next.
    let offset = 0;
    const clock = { now: () => Date.now() + offset };
    const loop = createAskLoop({ plugins: [testPlugin({ m: [claimOnce(false), claimOnce(false), readOnly, claimOnce(true)] })], store: createMemoryTranscriptStore(), pool, toolStorePath, clock, idempotenceRetentionMs: 5_000 });
    const records = (): unknown[] => {
      const reader = new DatabaseSync(toolStorePath);
      try {
        return reader.prepare('SELECT turn, call_index, tool FROM idempotence WHERE session = ? ORDER BY turn, call_index').all('pruned').map((row) => ({ ...row }));
      } finally {
        reader.close();
      }
    };
    const seen: unknown[][] = [];
    const result = await loop.run({ agent: claimer, task: 'count', sid: 'pruned', onEvent: (event) => {
        if (event.type !== 'decision') return;
        seen.push(records());
        offset += 10_000;
      },
    });
    expect(result).toMatchObject({ status: 'DONE', result: 'at 3', turns: 4 });
    // After each turn: its own read and write; turn 2's first write removed turn 1's; turn 3 only read, removing nothing.
    const turnRecords = (turn: number) => [{ turn, call_index: 0, tool: 'tool.memory.get' }, { turn, call_index: 1, tool: 'tool.memory.cas' }];
    expect(seen).toEqual([turnRecords(1), turnRecords(2), turnRecords(2), turnRecords(4)]);
    await loop.close();
    // By default (an hour), records this young are all kept.
    const kept = createAskLoop({ plugins: [testPlugin({ m: [claimOnce(false), claimOnce(true)] })], store: createMemoryTranscriptStore(), pool, toolStorePath });
    expect(await kept.run({ agent: claimer, task: 'count', sid: 'kept' })).toMatchObject({ status: 'DONE', turns: 2 });
    const reader = new DatabaseSync(toolStorePath);
    expect(reader.prepare('SELECT turn FROM idempotence WHERE session = ? ORDER BY turn, call_index').all('kept').map((row) => row.turn)).toEqual([1, 1, 2, 2]);
    reader.close();
    await kept.close();
  });

  it('resumes after a crash mid-turn from the recorded reply, replaying write calls instead of repeating them', async () => {
    const effects: EffectLog = new Map();
    const toolStorePath = join(dir, 'tools.db');
    const memory = createMemoryTranscriptStore();
    const crashing = diesAtFirstDecision(memory);
    const first = createAskLoop({
      plugins: [testPlugin({ m: [program('set n = tool.test.Bump("cursor")', 'emit "cursor at " + n')] }, effects)],
      store: crashing,
      pool,
      toolStorePath,
      createId: (() => { let id = 0; return () => `id-${++id}`; })(),
    });
    await expect(first.run({ agent, task: 'x', sid: 'crashy' })).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR', message: expect.stringContaining('host killed') });
    expect(effects.get('cursor')).toBe(1);
    expect((await memory.listTurns('crashy'))[0]?.phase).toBe('executing');

    // A new host: its model only knows the NEXT reply, so turn 1 must come from the record.
    const second = createAskLoop({ plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> finished"')] }, effects)], store: memory, pool, toolStorePath });
    const resumed = await second.resume('crashy');
    expect(resumed).toMatchObject({ status: 'DONE', result: 'finished', turns: 2 });
    expect(effects.get('cursor')).toBe(1);
    const turns = await memory.listTurns('crashy');
    expect(turns[0]?.output).toBe('cursor at 1\n');
    await first.close().catch(() => undefined);
    await second.close();
  });
});
