/**
 * The built-in pure tools answered in the sandbox worker (`localTools`): the
 * turn records, events, call indexes and counters are what they are when the
 * host answers every call, through the real pool, SQLite tool store and
 * replay; a policy with call limits keeps every call in the host.
 */
import { createInterpreter, createSandboxPool } from '@askloop/interpreter';
import { openSqliteStore } from '@askloop/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createDefaultInterpreter } from '../src/interpreter/default-interpreter.ts';
import type { LoopInterpreter } from '../src/interpreter/loop-interpreter.ts';
import type { LoopEvent } from '../src/events/loop-event.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const program = envelope(
  [
    'command',
    '  emit "start"',
    '  set a = tool.str.ToUpper("x")',
    '  set n = tool.test.Bump("k")',
    '  set b = tool.list.Sort([3, 1, 2])',
    '  emit a + " " + n + " " + b[0]',
    'endcommand',
  ].join('\n'),
);
const allow = ['tool.str.*', 'tool.list.*', 'tool.test.Bump'];

/** The default interpreter (or `inner`), noting each run's `localTools` and every call its tools book as answered in the worker. */
function watchedInterpreter(inner: LoopInterpreter = createDefaultInterpreter(pool)): { interpreter: LoopInterpreter; runs: (readonly string[] | undefined)[]; booked: string[] } {
  const runs: (readonly string[] | undefined)[] = [];
  const booked: string[] = [];
  return {
    runs,
    booked,
    interpreter: {
      prepare: (source, options) => inner.prepare(source, options),
      execute(prepared, options = {}) {
        runs.push(options.localTools?.names);
        const { tools } = options;
        const recordLocalCall = tools?.recordLocalCall;
        if (tools === undefined || recordLocalCall === undefined) return inner.execute(prepared, options);
        return inner.execute(prepared, { ...options, tools: { ...tools, call: tools.call, recordLocalCall: (name) => (booked.push(name), recordLocalCall.call(tools, name)) } });
      },
    },
  };
}

describe('pure tools answered in the sandbox worker', () => {
  it('records the turn as the host would: calls in order with their indexes, events in order, the write at its index', async () => {
    const watched = watchedInterpreter();
    const toolStores = openSqliteStore(':memory:');
    const store = createMemoryTranscriptStore();
    const replies = Array.from({ length: 40 }, () => program);
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool, interpreter: watched.interpreter, toolStores });
    const sid = await loop.create({ agent: { name: 'a', model: 'scripted:m', policy: { allow } }, task: 'local tools' });
    const events: string[] = [];
    const onEvent = (event: LoopEvent): void => {
      if (event.type === 'emit') events.push(`emit ${event.text}`);
      if (event.type === 'tool-call') events.push(`tool-call ${event.call.index} ${event.call.name}`);
    };
    // The worker loads the tools' module at the first run that names them, without waiting: step until it answers.
    let turn = -1;
    for (let step = 0; step < 30 && watched.booked.length === 0; step += 1) {
      events.length = 0;
      const result = await loop.step(sid, { onEvent });
      expect(result.status).toBe('RUNNING');
      turn += 1;
    }
    expect(watched.booked).toEqual(['tool.str.toupper', 'tool.list.sort']);
    expect(watched.runs.at(-1)).toEqual(['tool.list.sort', 'tool.str.toupper']);

    const record = (await store.listTurns(sid))[turn];
    expect(record?.toolCalls.map((call) => [call.index, call.name, call.result])).toEqual([
      [0, 'tool.str.toupper', 'X'],
      [1, 'tool.test.bump', turn + 1],
      [2, 'tool.list.sort', [1, 2, 3]],
    ]);
    expect(record?.usage.toolCalls).toBe(3);
    expect(events).toEqual(['emit start', 'tool-call 0 tool.str.toupper', 'tool-call 1 tool.test.bump', 'tool-call 2 tool.list.sort', `emit X ${turn + 1} 1`]);
    // The write is recorded for idempotence at its own index, after the call answered in the worker.
    const turnIndex = record?.turnIndex ?? -1;
    expect(await toolStores.idempotence.lookup(sid, turnIndex, 1)).toMatchObject({ tool: 'tool.test.bump', callIndex: 1 });
    expect(await toolStores.idempotence.lookup(sid, turnIndex, 0)).toBeUndefined();
    // A replay answers every call from the record, and matches it.
    expect(await loop.replay(sid)).toMatchObject({ matched: true, turns: turn + 1 });
    await loop.close();
    toolStores.close();
  });

  it('hides a key a pure tool decodes, as the tool host does: the worker leaves such a result to the host', async () => {
    const secret = 'sk-live-0123456789';
    const decode = envelope(['command', `  set s = tool.str.FromHex("${Buffer.from(secret).toString('hex')}")`, '  set t = tool.str.ToUpper("plain")', '  emit s + " " + t', 'endcommand'].join('\n'));
    const watched = watchedInterpreter();
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: Array.from({ length: 30 }, () => decode) })], store, pool, interpreter: watched.interpreter, secrets: () => [secret] });
    const sid = await loop.create({ agent: { name: 'a', model: 'scripted:m', policy: { allow: ['tool.str.*'] } }, task: 'secrets' });
    // Until the worker answers the plain call itself (its module loads at the first run that names it).
    for (let step = 0; step < 30 && watched.booked.length === 0; step += 1) await loop.step(sid);
    expect(watched.booked).toEqual(['tool.str.toupper']);
    const turns = await store.listTurns(sid);
    const last = turns.at(-1);
    expect(last?.toolCalls.map((call) => call.result)).toEqual(['[REDACTED]', 'PLAIN']);
    expect(last?.output).toBe('[REDACTED] PLAIN\n');
    expect(JSON.stringify(turns)).not.toContain(secret);
    await loop.close();
  });

  it('keeps every call in the host under a policy with call limits (they are counted there, call by call)', async () => {
    const watched = watchedInterpreter();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program, program] })], store: createMemoryTranscriptStore(), pool, interpreter: watched.interpreter });
    const sid = await loop.create({ agent: { name: 'a', model: 'scripted:m', policy: { allow, limits: { perSession: 100 } } }, task: 'limits' });
    expect(await loop.step(sid)).toMatchObject({ status: 'RUNNING', usage: { toolCalls: 3 } });
    expect(await loop.step(sid)).toMatchObject({ status: 'RUNNING', usage: { toolCalls: 6 } });
    expect(watched.runs).toEqual([undefined, undefined]);
    expect(watched.booked).toEqual([]);
    await loop.close();
  });

  it('answers a result as the tool host bounds it, when the interpreter allows longer strings than the turn\'s tool host', async () => {
    // The interpreter's own default quotas allow 4 MiB strings; the turn's tool host holds results to the agent's
    // quotas (unset here: 1 MiB). A 2 MiB result is the tool host's refusal (a tool error), wherever it is computed.
    // A bare interpreter, as the loop's: it refuses an ask hook, which the loop gives only to an agent that lists agents to ask.
    const watched = watchedInterpreter(createInterpreter({ pool, limits: { stringLength: 4 * 1024 * 1024 } }));
    const warm = envelope('command\n  set a = tool.str.ToUpper("x")\nendcommand\n');
    const big = envelope(['command', '  set s = "x"', '  for each i in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]', '    set s = s + s', '  endfor', '  set t = tool.str.ToUpper(s)', '  emit "upper"', 'endcommand'].join('\n'));
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ warm: Array.from({ length: 30 }, () => warm), local: [big], host: [big] })], store, pool, interpreter: watched.interpreter });
    const warmSid = await loop.create({ agent: { name: 'w', model: 'scripted:warm', policy: { allow } }, task: 'warm up' });
    for (let step = 0; step < 30 && watched.booked.length === 0; step += 1) await loop.step(warmSid);
    expect(watched.booked).not.toEqual([]);
    const outcome = async (model: string, policy: { allow: string[]; limits?: { perSession: number } }): Promise<unknown> => {
      const sid = await loop.create({ agent: { name: model, model: `scripted:${model}`, policy }, task: 'big' });
      await loop.step(sid);
      const call = (await store.listTurns(sid))[0]?.toolCalls[0];
      return { name: call?.name, error: call?.error?.code, resultLength: typeof call?.result === 'string' ? call.result.length : undefined };
    };
    // Under a call limit every call stays in the host: what the host answers.
    const host = await outcome('host', { allow, limits: { perSession: 1000 } });
    const local = await outcome('local', { allow });
    expect(host).toEqual({ name: 'tool.str.toupper', error: 'SCRIPT_TOOL_ERROR', resultLength: undefined });
    expect(local).toEqual(host);
    await loop.close();
  });
});
