/** Seed 004's `ask` hook, the decision log, the counters and USERDATA validation, end to end. */
import { createSandboxPool } from '@askloop/interpreter';
import { createScriptedProvider } from '@askloop/providers';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import type { LoopEvent } from '../src/events/loop-event.ts';
import { decisionLogEntry } from '../src/loop/decision-log.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

// Two workers; a parent's run waiting on its child lets the pool start one more (`maxNestedWorkers`).
const pool = createSandboxPool({ workers: 2 });
afterAll(() => pool.close());
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));

describe('ask (seed 004)', () => {
  const models = {
    parent: [program('ask "child", "what is two plus two" into answer', 'emit "<<<LOOP:DONE>>> child said " + answer')],
    child: [program('emit "<<<LOOP:DONE>>> four"')],
  };

  const agents = { parent: { name: 'parent', model: 'scripted:parent', asks: ['child'] }, child: { name: 'child', model: 'scripted:child' } };
  /** A parent session run to its end on a store of its own, its one turn asking the child. */
  const delegated = async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin(models, new Map(), agents)], store, pool });
    return { store, loop, result: await loop.run({ agent: 'parent', task: 'delegate' }) };
  };

  it('runs a child loop in a new session and returns its result', async () => {
    const { store, loop, result } = await delegated();
    expect(result).toMatchObject({ status: 'DONE', result: 'child said four' });
    const child = (await store.listSessions()).find((session) => session.parentSid === result.sid);
    expect(child).toMatchObject({ agent: 'child', status: 'done', userdata: { subject: 'what is two plus two' } });
    const [childTurn] = await store.listTurns(child!.sid);
    const childSpend = { inputTokens: childTurn!.usage.inputTokens, outputTokens: childTurn!.usage.outputTokens, costUsd: childTurn!.usage.costUsd };
    expect((await store.listTurns(result.sid))[0]?.asks).toEqual([{ index: 0, agent: 'child', sid: child?.sid, result: 'four', usage: childSpend }]);
    // The loop's usage counts what its ask spent; the turn's own usage is its own model call's.
    const [parentTurn] = await store.listTurns(result.sid);
    expect(result.usage.inputTokens).toBe(parentTurn!.usage.inputTokens + childSpend.inputTokens);
    expect((await loop.replay(result.sid)).matched).toBe(true);
  });

  it('refuses a tool that needs approval in a child loop, and answers no to a child that pauses anyway (walkthrough: a paused child stayed approvable, its write ran for no one)', async () => {
    const store = createMemoryTranscriptStore();
    const replies = {
      parent: [program('ask "deployer", "ship it" into answer', 'emit "<<<LOOP:DONE>>> " + answer'), program('ask "awaiter", "wait" into answer', 'emit "<<<LOOP:DONE>>> " + answer')],
      deployer: [program('emit "<<<LOOP:DONE>>> " + tool.test.Deploy("prod")')],
      awaiter: [program('emit "[[loop:await:approval_id=A1]]"')],
    };
    const agents = {
      parent: { name: 'parent', model: 'scripted:parent', asks: ['deployer', 'awaiter'], repair: 1 },
      deployer: { name: 'deployer', model: 'scripted:deployer', policy: { allow: ['tool.test.*'] } },
      awaiter: { name: 'awaiter', model: 'scripted:awaiter', dialect: 'v1' as const },
    };
    const loop = createAskLoop({ plugins: [testPlugin(replies, new Map(), agents)], store, pool });
    const first = await loop.run({ agent: 'parent', task: 'ship' });
    const children = async () => (await store.listSessions()).filter((session) => session.parentSid === first.sid);
    // The deployer's program is refused by the check: nothing paused, nothing ran.
    const deployer = (await children()).find((session) => session.agent === 'deployer');
    expect(deployer).toMatchObject({ status: 'halted' });
    const [refused] = await store.listTurns(deployer!.sid);
    expect(refused?.diagnostics[0]).toMatchObject({ code: 'SCRIPT_TOOL_DENIED', message: expect.stringContaining("tool.test.Deploy needs a person's approval before it runs, and the loop of an 'ask' has no one to ask; its asker cannot wait for a person") });
    expect(refused?.toolCalls).toEqual([]);
    // A v1 child that awaits is answered no at once: nothing is left to approve.
    const awaiter = (await children()).find((session) => session.agent === 'awaiter');
    expect(awaiter).toMatchObject({ status: 'halted', lastDecision: { kind: 'HALT', reason: 'ERR_PERMISSIONS' } });
    await expect(loop.approve(awaiter!.sid)).rejects.toMatchObject({ code: 'LOOP_APPROVAL_NOT_PENDING' });
  });

  it("decides at once a child whose program a plugin's gate holds for approval (review: it paused and stayed running for good)", async () => {
    const store = createMemoryTranscriptStore();
    const replies = {
      parent: [program('ask "gated", "go" into answer', 'emit "<<<LOOP:DONE>>> " + answer'), program('emit "<<<LOOP:DONE>>> without it"')],
      // Its first program is held; told why, it answers without the held step.
      gated: [program('emit "<<<LOOP:DONE>>> held"'), program('emit "<<<LOOP:DONE>>> a person must do it"')],
    };
    const agents = {
      parent: { name: 'parent', model: 'scripted:parent', asks: ['gated'] },
      gated: { name: 'gated', model: 'scripted:gated', repair: 1 },
    };
    const gate = definePlugin({ name: 'gate', specificationVersion: 'v1', hooks: { programChecked: (_program, turn) => (turn.agent === 'gated' && turn.turnIndex === 1 ? { kind: 'require-approval', message: 'hold' } : undefined) } });
    const loop = createAskLoop({ plugins: [testPlugin(replies, new Map(), agents), gate], store, pool });
    const result = await loop.run({ agent: 'parent', task: 'x' });
    expect(result).toMatchObject({ status: 'DONE', result: 'a person must do it' });
    const [child] = (await store.listSessions()).filter((session) => session.parentSid === result.sid);
    expect(child).toMatchObject({ status: 'done', lastDecision: { kind: 'DONE' } });
    const [held, after] = await store.listTurns(child!.sid);
    expect(held).toMatchObject({ approval: { state: 'denied', message: expect.stringContaining("hold (held for a person's approval, which the loop of an 'ask' cannot wait for") }, decision: { kind: 'CONTINUE' } });
    expect(held?.toolCalls).toEqual([]);
    expect(after?.decision).toMatchObject({ kind: 'DONE' });
    await expect(loop.approve(child!.sid)).rejects.toMatchObject({ code: 'LOOP_APPROVAL_NOT_PENDING' });
    await loop.close();
  });

  it("counts a child's spend against the asker's token ceiling, and lowers the child's to what the asker has left", async () => {
    const store = createMemoryTranscriptStore();
    const spending = (text: string) => ({ text, usage: { inputTokens: 100, outputTokens: 100 } });
    const replies = {
      // Turn 1 asks and goes on; turn 2 would finish, if the ceiling let it.
      asker: [{ text: program('ask "spender", "spend" into answer', 'emit "asked: " + answer'), usage: { inputTokens: 10, outputTokens: 10 } }, program('emit "<<<LOOP:DONE>>> finished"')],
      spender: [spending(program('emit "<<<LOOP:DONE>>> spent"'))],
      // Would take three turns; its lowered ceiling halts it after the second.
      greedy: [spending(program('emit "one"')), spending(program('emit "two"')), spending(program('emit "<<<LOOP:DONE>>> three"'))],
    };
    const team = {
      asker: { name: 'asker', model: 'scripted:asker', asks: ['spender', 'greedy'], ceilings: { tokens: 100 } },
      spender: { name: 'spender', model: 'scripted:spender' },
      lavish: { name: 'lavish', model: 'scripted:asker', asks: ['greedy'], ceilings: { tokens: 300 } },
      greedy: { name: 'greedy', model: 'scripted:greedy' },
    };
    const loop = createAskLoop({ plugins: [testPlugin(replies, new Map(), team)], store, pool });
    // 20 tokens of its own and 200 of its child's: past its 100 after turn 1 (it used to go on to turn 2 and DONE).
    const asked = await loop.run({ agent: 'asker', task: 'x' });
    expect(asked).toMatchObject({ status: 'HALT', reason: 'ERR_BUDGET', turns: 1, usage: { inputTokens: 110, outputTokens: 110 } });
    expect(await loop.replay(asked.sid)).toMatchObject({ matched: true });

    // 300 tokens, 20 spent by the asking turn's own call: the child may spend 280, and halts after its second turn.
    const lavishStore = createMemoryTranscriptStore();
    const lavishReplies = { asker: [{ text: program('on error do', '  emit "failed: " + system_error_code', '  clear_error', 'endon', 'ask "greedy", "spend" into answer'), usage: { inputTokens: 10, outputTokens: 10 } }], greedy: replies.greedy };
    const lavishLoop = createAskLoop({ plugins: [testPlugin(lavishReplies, new Map(), team)], store: lavishStore, pool });
    const lavish = await lavishLoop.run({ agent: 'lavish', task: 'x' });
    const greedy = (await lavishStore.listSessions()).find((session) => session.parentSid === lavish.sid);
    expect(greedy).toMatchObject({ status: 'halted', turns: 2, lastDecision: { kind: 'HALT', reason: 'ERR_BUDGET' } });
    expect(lavish).toMatchObject({ status: 'HALT', reason: 'ERR_BUDGET', usage: { inputTokens: 210, outputTokens: 210 } });

    // Nothing left: an ask starts no child (each used to run a whole first turn on a 1-token ceiling).
    const brokeStore = createMemoryTranscriptStore();
    const broke = { asker: [{ text: program('on error do', '  emit "refused: " + system_error_code', '  clear_error', 'endon', 'set i = 0', 'while i < 5', '  ask "spender", "spend" into answer', '  set i = i + 1', 'endwhile'), usage: { inputTokens: 60, outputTokens: 60 } }], spender: replies.spender };
    const brokeLoop = createAskLoop({ plugins: [testPlugin(broke, new Map(), team)], store: brokeStore, pool });
    const spentOut = await brokeLoop.run({ agent: 'asker', task: 'x' });
    expect(spentOut).toMatchObject({ status: 'HALT', reason: 'ERR_BUDGET', usage: { inputTokens: 60, outputTokens: 60 } });
    expect((await brokeStore.listSessions()).filter((session) => session.parentSid === spentOut.sid)).toEqual([]);
    const [brokeTurn] = await brokeStore.listTurns(spentOut.sid);
    expect(brokeTurn?.asks?.[0]?.error).toMatchObject({ code: 'LOOP_ASK_FAILED', message: expect.stringContaining('has spent its token ceiling, so no child loop was started') });
    expect(await brokeLoop.replay(spentOut.sid)).toMatchObject({ matched: true });
    await brokeLoop.close();

    // The same for cost: a priced asker past its cost ceiling starts no child either.
    const pricedStore = createMemoryTranscriptStore();
    const priced = definePlugin({
      name: 'priced',
      specificationVersion: 'v1',
      // $1,000 a million tokens: the asker's own call (120 tokens) costs $0.12, past its $0.1 ceiling.
      providers: { paid: createScriptedProvider({ name: 'paid', models: { asker: broke.asker }, prices: { asker: { inputPerMillion: 1000, outputPerMillion: 1000 } } }) },
      agents: { thrifty: { name: 'thrifty', model: 'paid:asker', asks: ['spender'], ceilings: { costUsd: 0.1 } } },
    });
    const pricedLoop = createAskLoop({ plugins: [testPlugin({ spender: replies.spender }, new Map(), team), priced], store: pricedStore, pool });
    const overspent = await pricedLoop.run({ agent: 'thrifty', task: 'x' });
    expect(overspent).toMatchObject({ status: 'HALT', reason: 'ERR_BUDGET' });
    expect((await pricedStore.listSessions()).filter((session) => session.parentSid === overspent.sid)).toEqual([]);
    const [pricedTurn] = await pricedStore.listTurns(overspent.sid);
    expect(pricedTurn?.asks?.[0]?.error).toMatchObject({ code: 'LOOP_ASK_FAILED', message: expect.stringContaining('has spent its cost ceiling') });
    await pricedLoop.close();
    await loop.close();
    await lavishLoop.close();
  });

  it("lowers a priced child's cost ceiling to what its asker has left, and gives an unpriced child none", async () => {
    // $1,000 a million tokens: the asker's own call (20 tokens) costs $0.02, each of the child's turns (300) $0.30.
    const price = { inputPerMillion: 1000, outputPerMillion: 1000 };
    const turn = (text: string, tokens: number) => ({ text, usage: { inputTokens: tokens / 2, outputTokens: tokens / 2 } });
    const asking = (agent: string) => [turn(program('on error do', '  emit "failed: " + system_error_code', '  clear_error', 'endon', `ask "${agent}", "spend" into answer`, 'emit "<<<LOOP:DONE>>> asked"'), 20)];
    const priced = definePlugin({
      name: 'priced',
      specificationVersion: 'v1',
      providers: {
        paid: createScriptedProvider({
          name: 'paid',
          models: { asker: asking('greedy'), cheapAsker: asking('free'), greedy: [turn(program('emit "one"'), 300), turn(program('emit "two"'), 300), turn(program('emit "<<<LOOP:DONE>>> three"'), 300)] },
          prices: { asker: price, cheapAsker: price, greedy: price },
        }),
      },
      agents: {
        thrifty: { name: 'thrifty', model: 'paid:asker', asks: ['greedy'], ceilings: { costUsd: 0.5 } },
        greedy: { name: 'greedy', model: 'paid:greedy', ceilings: { costUsd: 5 } },
        frugal: { name: 'frugal', model: 'paid:cheapAsker', asks: ['free'], ceilings: { costUsd: 0.5 } },
        free: { name: 'free', model: 'scripted:free' },
      },
    });
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ free: [program('emit "<<<LOOP:DONE>>> gratis"')] }, new Map(), {}), priced], store, pool });
    const thrifty = await loop.run({ agent: 'thrifty', task: 'x' });
    const greedy = (await store.listSessions()).find((session) => session.parentSid === thrifty.sid);
    // $0.48 left: its second turn ($0.60 in all) halts it. Its own $5 ceiling used to let it finish its third ($0.90).
    expect(greedy).toMatchObject({ status: 'halted', turns: 2, lastDecision: { kind: 'HALT', reason: 'ERR_BUDGET' }, agentDefinition: { ceilings: { costUsd: 0.48 } } });
    // The halted child fails the ask; the asker's turn goes on to its DONE, having spent $0.62 in all.
    expect((await store.listTurns(thrifty.sid))[0]?.asks?.[0]?.error).toMatchObject({ code: 'LOOP_ASK_FAILED' });
    expect(thrifty).toMatchObject({ status: 'DONE', result: 'asked' });
    expect(thrifty.usage.costUsd).toBeCloseTo(0.62, 10);
    expect(await loop.replay(thrifty.sid)).toMatchObject({ matched: true });

    // A child whose model has no prices costs $0 here: it runs, with no cost ceiling (LOOP_AGENT_INVALID would refuse one it could never reach).
    const frugal = await loop.run({ agent: 'frugal', task: 'x' });
    expect(frugal).toMatchObject({ status: 'DONE', result: 'asked' });
    const free = (await store.listSessions()).find((session) => session.parentSid === frugal.sid);
    expect(free).toMatchObject({ status: 'done', lastDecision: { kind: 'DONE', result: 'gratis' } });
    expect((free?.agentDefinition as { ceilings: { costUsd?: number } }).ceilings.costUsd).toBeUndefined();
    await loop.close();
  });

  it('replays each ask from the child its turn names, not from a child left behind by a run a crash cut short', async () => {
    const { store, loop, result } = await delegated();
    const [child] = (await store.listSessions()).filter((session) => session.parentSid === result.sid);
    // What a first attempt of the turn's run leaves when the host dies during it: an older child, which the run
    // made again after the resume asked anew. No turn record names it.
    const { sid: _sid, ...rest } = child as NonNullable<typeof child>;
    await store.createSession({ ...rest, sid: 'orphan-of-a-cut-run', createdAt: '2000-01-01T00:00:00.000Z', lastDecision: { kind: 'DONE', result: 'five' } });
    expect((await loop.replay(result.sid)).matched).toBe(true);
  });

  it('replays each ask from what it gave the run, however its child session ends later', async () => {
    const { store, loop, result } = await delegated();
    const [child] = (await store.listSessions()).filter((session) => session.parentSid === result.sid);
    // The child goes on after the parent's turn (resumed, approved): it no longer ends the way the ask saw it.
    await store.updateSession({ ...(child as NonNullable<typeof child>), status: 'halted', lastDecision: { kind: 'HALT', reason: 'ERR_CANCELLED', message: 'stopped later' } as never });
    expect((await loop.replay(result.sid)).matched).toBe(true);
  });

  it('records an ask that failed before a child existed in its place, so the asks after it replay from their own children', async () => {
    const store = createMemoryTranscriptStore();
    const recovering = {
      parent: [program('on error do', '  emit "failed: " + system_error_code + " " + system_error_message', '  clear_error', 'endon', 'ask "nosuch", "anyone?" into first', 'ask "child", "what is two plus two" into answer', 'emit "<<<LOOP:DONE>>> child said " + answer')],
      child: models.child,
    };
    // `asks: ['*']`: an agent that may ask anyone, so asking one that does not exist fails when the statement runs.
    const anyone = { ...agents, parent: { ...agents.parent, asks: ['*'] } };
    const loop = createAskLoop({ plugins: [testPlugin(recovering, new Map(), anyone)], store, pool });
    const result = await loop.run({ agent: 'parent', task: 'delegate' });
    expect(result).toMatchObject({ status: 'DONE', result: 'child said four' });
    const [child] = (await store.listSessions()).filter((session) => session.parentSid === result.sid);
    const [turn] = await store.listTurns(result.sid);
    expect(turn?.asks).toEqual([
      { index: 0, agent: 'nosuch', error: { code: expect.any(String), message: expect.stringContaining('nosuch') } },
      { index: 1, agent: 'child', sid: child?.sid, result: 'four', usage: expect.objectContaining({ inputTokens: expect.any(Number) }) },
    ]);
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null });
  });

  it('replays a recording whose turns do not name their children from the children in the order they were made', async () => {
    const { store, loop, result } = await delegated();
    // A record saved before turns named their children.
    for (const { asks: _asks, ...turn } of await store.listTurns(result.sid)) await store.saveTurn(turn);
    expect((await store.listTurns(result.sid))[0]?.asks).toBeUndefined();
    expect((await loop.replay(result.sid)).matched).toBe(true);
  });

  it('lets `with {"max_turns": n}` lower the child\'s turn ceiling, and fails the ask when the child halts', async () => {
    const store = createMemoryTranscriptStore();
    const limited = {
      parent: [program('ask "child", "count" with {"max_turns": 1} into answer', 'emit "<<<LOOP:DONE>>> " + answer'), program('emit "<<<LOOP:DONE>>> gave up"')],
      child: [program('emit "still counting"')],
    };
    const loop = createAskLoop({ plugins: [testPlugin(limited, new Map(), agents)], store, pool });
    const result = await loop.run({ agent: 'parent', task: 'delegate' });
    expect(result).toMatchObject({ status: 'DONE', result: 'gave up', decisions: [{ decision: 'CONTINUE' }, { decision: 'DONE' }] });
    const [first] = await store.listTurns(result.sid);
    expect(first?.failure).toMatchObject({ kind: 'runtime' });
    expect(first?.output).toContain('ERR_MAX_TURNS_EXCEEDED');
    const child = (await store.listSessions()).find((session) => session.parentSid === result.sid);
    expect(child).toMatchObject({ status: 'halted', turns: 1, lastDecision: { reason: 'ERR_MAX_TURNS_EXCEEDED' } });
    // The replayed ask fails with the live ask's message, which the turn's OUTPUT quotes.
    expect(first?.output).toContain(`in session ${child?.sid}`);
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null });
  });

  it('replays an ask its run gave up on (the run ran out of time while the child worked) the way it ended: by the same timeout', async () => {
    const store = createMemoryTranscriptStore();
    // The child's model answers only once the parent's session has ended: after its run ran out of time.
    let release!: () => void;
    const parentEnded = new Promise<void>((resolve) => (release = resolve));
    const slow = {
      parent: [program('ask "child", "take your time" into answer', 'emit "<<<LOOP:DONE>>> " + answer')],
      child: async () => {
        await parentEnded;
        return program('emit "<<<LOOP:DONE>>> too late"');
      },
    };
    const patient = {
      // 1 s: enough for the run to reach its `ask` on a loaded machine, and for the test to stay short.
      parent: { name: 'parent', model: 'scripted:parent', asks: ['child'], quotas: { wallMs: 1_000 } },
      child: { name: 'child', model: 'scripted:child' },
    };
    const loop = createAskLoop({ plugins: [testPlugin(slow, new Map(), patient)], store, pool });
    const result = await loop.run({ agent: 'parent', task: 'delegate' });
    release();
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_TIMEOUT' });
    const [turn] = await store.listTurns(result.sid);
    expect(turn?.failure).toMatchObject({ kind: 'timeout' });
    // Recorded in its place, with the child it started and no outcome: the run ended before the child did; and what
    // the child, cancelled by the run's end, spent (nothing: its model call had not answered).
    expect(turn?.asks).toEqual([{ index: 0, agent: 'child', sid: expect.any(String), usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } }]);
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null });
    // The child is cancelled once its parent's run has ended; that changes nothing recorded of the parent's turn.
    const childSid = turn?.asks?.[0]?.sid as string;
    await vi.waitFor(async () => expect((await store.getSession(childSid))?.status).not.toBe('running'), { timeout: 15_000, interval: 50 });
    expect(await store.getSession(childSid)).toMatchObject({ status: 'halted', lastDecision: { reason: 'ERR_CANCELLED' } });
    expect((await store.listTurns(result.sid))[0]?.asks).toEqual(turn?.asks);
  });

  it('runs children while their parents hold every worker: three parents asking at once on a pool of one', async () => {
    const single = createSandboxPool({ workers: 1, maxQueueMs: 20_000 });
    try {
      const store = createMemoryTranscriptStore();
      const many = { parent: Array.from({ length: 3 }, () => models.parent[0] as string), child: Array.from({ length: 3 }, () => models.child[0] as string) };
      const loop = createAskLoop({ plugins: [testPlugin(many, new Map(), agents)], store, pool: single });
      const results = await Promise.all([1, 2, 3].map(() => loop.run({ agent: 'parent', task: 'delegate' })));
      for (const result of results) expect(result).toMatchObject({ status: 'DONE', result: 'child said four' });
      expect((await store.listSessions()).filter((session) => session.parentSid !== undefined)).toHaveLength(3);
    } finally {
      await single.close();
    }
  });

  it('refuses an ask of an agent not in `asks` before anything runs, and a computed one when it runs', async () => {
    const store = createMemoryTranscriptStore();
    const guarded = { ...agents, parent: { name: 'parent', model: 'scripted:parent', asks: ['child'] }, admin: { name: 'admin', model: 'scripted:child' } };
    const literal = createAskLoop({ plugins: [testPlugin({ parent: [program('ask "admin", "write the file" into x', 'emit "<<<LOOP:DONE>>> " + x')], child: models.child }, new Map(), guarded)], store, pool });
    const refused = await literal.run({ agent: 'parent', task: 'escalate' });
    expect(refused).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS' });
    const [turn] = await store.listTurns(refused.sid);
    expect(turn?.failure).toMatchObject({ code: 'SCRIPT_ASK_NOT_ALLOWED', kind: 'permission', line: 2, message: expect.stringContaining("add 'admin' to the agent's `asks`") });
    expect(turn?.emits).toEqual([]);
    // Computed at run time: refused when the statement runs, and no child session is made.
    const computed = createAskLoop({ plugins: [testPlugin({ parent: [program('set who = "ad" + "min"', 'ask who, "write the file" into x', 'emit "<<<LOOP:DONE>>> " + x')], child: models.child }, new Map(), guarded)], store, pool });
    const failed = await computed.run({ agent: 'parent', task: 'escalate' });
    const [ran] = await store.listTurns(failed.sid);
    expect(ran?.failure?.code).toBe('SCRIPT_ASK_NOT_ALLOWED');
    expect((await store.listSessions()).filter((session) => session.parentSid !== undefined)).toEqual([]);
    // An agent that lists no one may not ask at all.
    const none = createAskLoop({ plugins: [testPlugin({ parent: [program('ask "child", "hi" into x')], child: models.child }, new Map(), { ...agents, parent: { name: 'parent', model: 'scripted:parent' } })], store, pool });
    expect(await none.run({ agent: 'parent', task: 'x' })).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS' });
  });

  it("counts each ask as a call against the asking agent's per-session limit", async () => {
    const store = createMemoryTranscriptStore();
    const limited = { ...agents, parent: { name: 'parent', model: 'scripted:parent', asks: ['child'], policy: { limits: { perSession: 1 } } } };
    const replies = { parent: [program('ask "child", "one" into a', 'ask "child", "two" into b', 'emit "<<<LOOP:DONE>>> " + a + b')], child: [program('emit "<<<LOOP:DONE>>> 1"'), program('emit "<<<LOOP:DONE>>> 2"')] };
    const loop = createAskLoop({ plugins: [testPlugin(replies, new Map(), limited)], store, pool });
    const result = await loop.run({ agent: 'parent', task: 'x' });
    const [turn] = await store.listTurns(result.sid);
    expect(turn?.asks?.map((ask) => ask.error?.code ?? 'ok')).toEqual(['ok', 'POLICY_CALL_LIMIT']);
    expect((await store.listSessions()).filter((session) => session.parentSid === result.sid)).toHaveLength(1);
  });

  it("counts each ask as a call against the asking agent's per-turn limit, beside its tool calls", async () => {
    const store = createMemoryTranscriptStore();
    const limited = { ...agents, parent: { name: 'parent', model: 'scripted:parent', asks: ['child'], policy: { limits: { perTurn: 2 } } } };
    const replies = {
      parent: [
        program('ask "child", "one" into a', 'ask "child", "two" into b', 'emit a + b'),
        program('set n = tool.str.Length("ab")', 'ask "child", "three" into c', 'ask "child", "four" into d', 'emit "<<<LOOP:DONE>>> " + c + d'),
      ],
      child: [1, 2, 3, 4].map((n) => program(`emit "<<<LOOP:DONE>>> ${n}"`)),
    };
    const loop = createAskLoop({ plugins: [testPlugin(replies, new Map(), limited)], store, pool });
    const result = await loop.run({ agent: 'parent', task: 'x' });
    const [first, second] = await store.listTurns(result.sid);
    // Each turn has a limit of its own: two asks in the first, then a tool call and one ask in the second.
    expect(first?.asks?.map((ask) => ask.error?.code ?? 'ok')).toEqual(['ok', 'ok']);
    expect(second?.toolCalls).toHaveLength(1);
    expect(second?.asks?.map((ask) => ask.error?.code ?? 'ok')).toEqual(['ok', 'POLICY_CALL_LIMIT']);
    expect(second?.asks?.[1]?.error?.message).toBe('ask exceeded its call limit: at most 2 tool calls (an ask counts as one) are allowed per turn');
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS', turns: 2 });
    expect((await store.listSessions()).filter((session) => session.parentSid === result.sid)).toHaveLength(3);
  });

  it('refuses ask beyond maxAskDepth before anything runs', async () => {
    const agents = { parent: { name: 'parent', model: 'scripted:parent', asks: ['child'], maxAskDepth: 0 }, child: { name: 'child', model: 'scripted:child' } };
    const loop = createAskLoop({ plugins: [testPlugin(models, new Map(), agents)], store: createMemoryTranscriptStore(), pool });
    const result = await loop.run({ agent: 'parent', task: 'delegate' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS' });
    // It names the depth, not a missing `asks` entry: the agent lists 'child'.
    expect(result.failure).toMatchObject({ code: 'SCRIPT_ASK_NOT_ALLOWED', message: expect.stringContaining('maxAskDepth is 0') });
    expect(result.failure?.message).not.toContain('may ask no other agent');
    expect((await loop.replay(result.sid)).matched).toBe(true);
  });

  it('names maxAskDepth when a nested loop is as deep as it allows', async () => {
    // a (depth 0) asks b (depth 1), whose ask of a is refused: b lists a, but is as deep as its maxAskDepth of 1 allows.
    const agents = {
      a: { name: 'a', model: 'scripted:a', asks: ['b'] },
      b: { name: 'b', model: 'scripted:b', asks: ['a'], maxAskDepth: 1 },
    };
    const replies = { a: [program('ask "b", "q" into x', 'emit "<<<LOOP:DONE>>> " + x')], b: [program('ask "a", "q" into x', 'emit "<<<LOOP:DONE>>> " + x')] };
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin(replies, new Map(), agents)], store, pool });
    const result = await loop.run({ agent: 'a', task: 'x' });
    const [child] = await store.listSessions({ parentSid: result.sid });
    const [turn] = await store.listTurns(child?.sid ?? '');
    expect(turn?.failure).toMatchObject({ code: 'SCRIPT_ASK_NOT_ALLOWED', kind: 'permission' });
    expect(turn?.failure?.message).toBe(
      "'ask' is not allowed in this turn: agent 'b' lists agents it may ask, but this loop already runs 1 or more asks deep, and its maxAskDepth (1) allows asking only from loops less deep. Do the work with tools and emit the result, or raise maxAskDepth in the definition.",
    );
    await loop.close();
  });
});

describe('observability', () => {
  it('logs every decided turn and counts decisions, halts, validations and tokens', async () => {
    const events: LoopEvent[] = [];
    const store = createMemoryTranscriptStore();
    const replies = [program('emit "a"', 'whisper "n", "note"'), 'not an envelope'];
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool, onEvent: (event) => events.push(event) });
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m' }, task: 'x' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_ENV_MARKERS_INVALID', turns: 2 });
    const logs = events.flatMap((event) => (event.type === 'decision' ? [event.log] : []));
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({ sid: result.sid, turn_index: 1, decision: 'CONTINUE', reason: null, output_bytes: 2, scratch_bytes: 5 });
    expect(Object.keys(logs[0] ?? {}).sort()).toEqual(['decision', 'latency_ms', 'loop_id', 'model_latency_ms', 'output_bytes', 'reason', 'scratch_bytes', 'sid', 'ts', 'turn_index']);
    expect(logs[1]).toMatchObject({ decision: 'HALT', reason: 'ERR_ENV_MARKERS_INVALID' });
    // The log is derived from the stored records alone.
    expect((await store.listTurns(result.sid)).map(decisionLogEntry)).toEqual(logs);
    expect(loop.metrics()).toMatchObject({ turns: 2, decisions: { CONTINUE: 1, HALT: 1 }, halts: { ERR_ENV_MARKERS_INVALID: 1 }, failedValidations: 1 });
    expect(loop.metrics().inputTokens).toBeGreaterThan(0);
    const types = new Set(events.map((event) => event.type));
    for (const type of ['loop-start', 'turn-start', 'phase', 'model-text', 'reply', 'prepared', 'emit', 'whisper', 'decision', 'loop-end']) expect(types).toContain(type);
  });

  it("logs an approval's pause and the turn's decision after its answer, counting the turn once", async () => {
    const events: LoopEvent[] = [];
    const store = createMemoryTranscriptStore();
    const replies = [program('emit tool.test.Deploy("prod")'), program('emit "<<<LOOP:DONE>>> shipped"')];
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool, onEvent: (event) => events.push(event) });
    const logged = () => events.flatMap((event) => (event.type === 'decision' ? [`${event.log.turn_index}:${event.log.decision}:${event.log.reason ?? ''}`] : []));
    const paused = await loop.run({ agent: { name: 'a', model: 'scripted:m', policy: { allow: ['tool.test.*'] } }, task: 'deploy' });
    expect(paused).toMatchObject({ status: 'PAUSED', reason: 'AWAITING_APPROVAL' });
    expect(logged()).toEqual(['1:PAUSE:AWAITING_APPROVAL']);
    // The record as stored: the checked program stays in memory only.
    const pausedEvent = events.find((event) => event.type === 'decision');
    expect(pausedEvent?.type === 'decision' && 'prepared' in pausedEvent.record).toBe(false);
    expect(pausedEvent?.type === 'decision' && pausedEvent.record.phase).toBe('awaiting-approval');
    expect(await loop.approve(paused.sid)).toMatchObject({ status: 'DONE', turns: 2 });
    expect(logged()).toEqual(['1:PAUSE:AWAITING_APPROVAL', '1:CONTINUE:', '2:DONE:']);
    expect(loop.metrics()).toMatchObject({ turns: 2, decisions: { PAUSE: 1, CONTINUE: 1, DONE: 1 } });
  });

  it('logs the HALT a denial makes of a v1 await, counting the turn once', async () => {
    const events: LoopEvent[] = [];
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "[[loop:await:approval_id=Q7K2G]]"')] })], store: createMemoryTranscriptStore(), pool, onEvent: (event) => events.push(event) });
    const paused = await loop.run({ agent: { name: 'a', model: 'scripted:m', dialect: 'v1' }, task: 'x' });
    expect(paused).toMatchObject({ status: 'PAUSED', reason: 'V1_AWAIT' });
    expect(await loop.deny(paused.sid, { note: 'not today' })).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS' });
    const decisions = events.flatMap((event) => (event.type === 'decision' ? [event] : []));
    expect(decisions.map((event) => `${event.log.turn_index}:${event.log.decision}:${event.log.reason}`)).toEqual(['1:PAUSE:V1_AWAIT', '1:HALT:ERR_PERMISSIONS']);
    expect(decisions[1]?.redecided).toBe(true);
    expect(loop.metrics()).toMatchObject({ turns: 1, decisions: { PAUSE: 1, HALT: 1 }, halts: { ERR_PERMISSIONS: 1 } });
  });

  it('tells the model in the next turn that its v1 await was approved, with the note (walkthrough: the next turn showed only the await marker)', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "[[loop:await:approval_id=Q7K2G]]"'), program('emit "deployed"')] })], store, pool });
    const paused = await loop.run({ agent: { name: 'a', model: 'scripted:m', dialect: 'v1' }, task: 'x' });
    expect(paused).toMatchObject({ status: 'PAUSED', reason: 'V1_AWAIT' });
    expect(await loop.approve(paused.sid, { note: 'yes,\n approved by bob' })).toMatchObject({ status: 'DONE', turns: 2 });
    const [first, second] = await store.listTurns(paused.sid);
    expect(first?.system).not.toContain('A person approved');
    expect(second?.system).toContain('A person approved what your last turn awaited (the model asked for approval): go on with it, and do not await it again. Their note: "yes, approved by bob".');
  });

  it("keeps a replay out of the controller's metrics and listeners", async () => {
    const events: LoopEvent[] = [];
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "one"'), program('emit "<<<LOOP:DONE>>> two"')] })], store: createMemoryTranscriptStore(), pool, onEvent: (event) => events.push(event) });
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m' }, task: 'x' });
    const before = { metrics: loop.metrics(), events: events.length };
    expect(before.metrics).toMatchObject({ turns: 2, decisions: { CONTINUE: 1, DONE: 1 } });
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, turns: 2 });
    expect(loop.metrics()).toEqual(before.metrics);
    expect(events).toHaveLength(before.events);
  });

  it('logs the final result of a DONE turn', async () => {
    const events: LoopEvent[] = [];
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> 42"')] })], store: createMemoryTranscriptStore(), pool, onEvent: (event) => events.push(event) });
    await loop.run({ agent: { name: 'a', model: 'scripted:m' }, task: 'x' });
    expect(events.find((event) => event.type === 'decision')).toMatchObject({ log: { decision: 'DONE', final_result: '42' } });
  });

  it('halts ERR_USERDATA_SCHEMA for a task that is not valid USERDATA, as data', async () => {
    const store = createMemoryTranscriptStore();
    const events: LoopEvent[] = [];
    const loop = createAskLoop({ plugins: [testPlugin({ m: [] })], store, pool, onEvent: (event) => events.push(event) });
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m' }, task: { subject: 42 } as never });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_USERDATA_SCHEMA', turns: 0 });
    expect(await store.getSession(result.sid)).toMatchObject({ status: 'halted', lastDecision: { reason: 'ERR_USERDATA_SCHEMA' } });
    // The call's events say so (there were none), and the HALT counts as a decision with no turn.
    expect(events.map((event) => event.type)).toEqual(['loop-start', 'loop-end']);
    expect(events[1]).toMatchObject({ type: 'loop-end', beforeFirstTurn: true, result: { status: 'HALT', reason: 'ERR_USERDATA_SCHEMA' } });
    expect(loop.metrics()).toMatchObject({ turns: 0, decisions: { HALT: 1 }, halts: { ERR_USERDATA_SCHEMA: 1 } });
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, turns: 0 });
  });

  it('halts ERR_ENV_SIZE, as data, for a task too large for an envelope (512 KiB a section) instead of throwing', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [] })], store, pool });
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m' }, task: 'x'.repeat(600 * 1024) });
    // The message is about the task, not an envelope line the caller never saw: its size as JSON ({"fields":{},"subject":"…"}: 26 bytes around the text) and what to do.
    const message = `the task is too large for an envelope: its USERDATA is ${(600 * 1024 + 26).toLocaleString('en-US')} bytes of JSON, and every turn's envelope carries it in a section of at most 524,288 bytes (512 KiB), its line end included. Keep the task short and put large data where a tool reads it (a file under the agent's fs root, memory)`;
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_ENV_SIZE', turns: 0, message });
    expect(await store.getSession(result.sid)).toMatchObject({ status: 'halted', lastDecision: { reason: 'ERR_ENV_SIZE', message } });
    expect(await store.listTurns(result.sid)).toEqual([]);
  });

  it('never runs a turn of a session halted before its first turn, when it is resumed or stepped', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [envelope('command\n  emit "<<<LOOP:DONE>>> ran anyway"\nendcommand')] })], store, pool });
    const halted = await loop.run({ agent: { name: 'a', model: 'scripted:m' }, task: { subject: 42 } as never });
    expect(await loop.resume(halted.sid)).toMatchObject({ status: 'HALT', reason: 'ERR_USERDATA_SCHEMA', turns: 0 });
    expect(await loop.step(halted.sid)).toMatchObject({ status: 'HALT', reason: 'ERR_USERDATA_SCHEMA', turns: 0 });
    expect(await store.listTurns(halted.sid)).toEqual([]);
    await loop.close();
  });
});
