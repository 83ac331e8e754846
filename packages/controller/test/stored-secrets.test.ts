/**
 * A known secret (the loop's `secrets()`) never reaches the sessions file,
 * whichever path it takes: a reply that writes it, a program that builds it,
 * a task that quotes it, a person's note. On a real SQLite file, read byte
 * for byte (its write-ahead log too). And what is stored is what runs: the
 * reply is hidden before its program is prepared, so the turn continued from
 * the store — approved from another controller, resumed after a cancel —
 * and a replay run the program the turn ran; the progress digest is of the
 * OUTPUT as stored, so the no-progress guard treats a key the program built
 * as the mark it is stored as. Regression: a reply was stored as it came,
 * and only what the CLI prints was redacted.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { progressDigest } from '@askloop/envelope';
import { createSandboxPool } from '@askloop/interpreter';
import { REDACTED, type GenerateOptions } from '@askloop/providers';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import type { LoopEvent } from '../src/events/loop-event.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import type { AskLoopPlugin } from '../src/plugin/plugin.ts';
import { envelope, testPlugin, type EffectLog } from './test-plugin.ts';

const KEY = 'acme-live-7Hq2Lm9Xz4Pw';
const pool = createSandboxPool({ workers: 1 });
const dir = mkdtempSync(join(tmpdir(), 'askloop-stored-secrets-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'a', model: 'scripted:m', policy: { allow: ['tool.test.*', 'tool.str.*'] } };

/** Every byte of a SQLite file and its write-ahead log, as text. */
function fileBytes(db: string): string {
  return [db, `${db}-wal`].filter(existsSync).map((file) => readFileSync(file).toString('latin1')).join('');
}

/** A controller over the SQLite file `db` whose loop knows KEY as a secret; `requests` gets what the model was sent. */
function loopOn(db: string, plugin: AskLoopPlugin, events: LoopEvent[] = []) {
  return createAskLoop({ plugins: [plugin], store: createSqliteTranscriptStore(db), pool, secrets: () => [KEY], onEvent: (event) => events.push(event) });
}

/** The scripted model `m` answering `replies`, each request it was sent kept in `requests`. */
function recordingPlugin(replies: string[], requests: GenerateOptions[], effects: EffectLog = new Map()): AskLoopPlugin {
  const plugin = testPlugin({ m: replies }, effects);
  const scripted = plugin.providers?.['scripted'];
  if (scripted === undefined) throw new Error('no scripted provider');
  return {
    ...plugin,
    providers: {
      scripted: {
        ...scripted,
        languageModel: (id, settings) => {
          const model = scripted.languageModel(id, settings);
          return { ...model, generate: (request: GenerateOptions) => (requests.push(request), model.generate(request)) };
        },
      },
    },
  };
}

describe('a known secret in what the controller stores', () => {
  it('a reply that writes it: stored, run and sent on as [REDACTED], the next turn told why; never in the file', async () => {
    const db = join(dir, 'reply.db');
    const requests: GenerateOptions[] = [];
    const events: LoopEvent[] = [];
    const loop = loopOn(db, recordingPlugin([program(`set k = "${KEY}"`, 'emit "the key is " + k', 'whisper "self", k', 'call tool.str.Length(k)'), program('emit "<<<LOOP:DONE>>> done"')], requests), events);
    const result = await loop.run({ agent, task: 'use the key' });
    await loop.close();
    expect(result).toMatchObject({ status: 'DONE', turns: 2 });
    const store = createSqliteTranscriptStore(db, { readOnly: true });
    const [session] = await store.listSessions();
    const turns = await store.listTurns(session?.sid ?? '');
    await store.close();
    const [first, second] = turns;
    expect(first?.reply).toMatchObject({ text: expect.stringContaining(`set k = "${REDACTED}"`), secretsHidden: true });
    // The program that ran is the one stored: it emitted the mark, and passed it to its tool call.
    expect(first?.output).toBe(`the key is ${REDACTED}\n`);
    expect(first?.toolCalls[0]?.args).toEqual([REDACTED]);
    expect(first?.digest).toBe(progressDigest(first?.output ?? '', first?.scratchpad ?? ''));
    // The next envelope carries the OUTPUT and SCRATCHPAD as stored, and the system text says what happened.
    expect(requests[1]?.prompt).toContain(`the key is ${REDACTED}`);
    expect(second?.system).toContain(`replaced by ${REDACTED} before your program ran`);
    // No record, no later request, no event but the model's stream as it came (`model-text`) holds it; nor the file.
    const told = events.filter((event) => event.type !== 'model-text');
    expect(JSON.stringify({ told, requests: requests.slice(1), turns })).not.toContain(KEY);
    expect(events.find((event) => event.type === 'reply')).toMatchObject({ text: expect.stringContaining(REDACTED) });
    expect(fileBytes(db)).not.toContain(KEY);
  });

  it('a program that builds it: OUTPUT, result and digest are of the mark, so the guard sees no progress as for the mark itself', async () => {
    const db = join(dir, 'built.db');
    const built = program('emit "the key is acme-live-" + "7Hq2Lm9Xz4Pw"');
    const written = program(`emit "the key is ${REDACTED}"`);
    const guarded = { ...agent, noProgressN: 2, nudge: false, ceilings: { maxTurns: 5 } };
    const runOf = async (reply: string) => {
      const loop = loopOn(db, recordingPlugin([reply, reply, reply], []));
      const result = await loop.run({ agent: guarded, task: 'x' });
      await loop.close();
      return result;
    };
    const fromBuilt = await runOf(built);
    const fromMark = await runOf(written);
    expect(fromBuilt).toMatchObject({ status: 'HALT', reason: 'ERR_NO_PROGRESS', turns: 2 });
    expect(fromMark).toMatchObject({ status: 'HALT', reason: 'ERR_NO_PROGRESS', turns: 2 });
    const store = createSqliteTranscriptStore(db, { readOnly: true });
    const builtTurns = await store.listTurns(fromBuilt.sid);
    const markTurns = await store.listTurns(fromMark.sid);
    await store.close();
    expect(builtTurns.map((turn) => turn.output)).toEqual(markTurns.map((turn) => turn.output));
    expect(builtTurns.map((turn) => turn.digest)).toEqual(markTurns.map((turn) => turn.digest));
    expect(fileBytes(db)).not.toContain(KEY);
  });

  it('a program that builds it and passes it on: its write\'s idempotence record and its run\'s events hold the mark', async () => {
    const db = join(dir, 'passed.db');
    const events: LoopEvent[] = [];
    const effects: EffectLog = new Map();
    const reply = program('set k = "acme-live-" + "7Hq2Lm9Xz4Pw"', 'call tool.test.Bump(k)', 'emit "sent " + k', 'whisper "self", k', 'emit "<<<LOOP:DONE>>> done"');
    const loop = loopOn(db, recordingPlugin([reply], [], effects), events);
    expect(await loop.run({ agent, task: 'x' })).toMatchObject({ status: 'DONE' });
    await loop.close();
    // The tool was given the key (the program built it; nothing hid it from the program), and acted once.
    expect(effects.get(KEY)).toBe(1);
    // Regression: the write's arguments were kept in the tools' idempotence table of the same file as written, and the
    // emit, whisper and tool-call events carried the key while the record they make up was stored with the mark.
    expect(events.filter((event) => event.type === 'emit').map((event) => event.type === 'emit' && event.text)).toContain(`sent ${REDACTED}`);
    expect(JSON.stringify(events.filter((event) => event.type !== 'model-text'))).not.toContain(KEY);
    expect(fileBytes(db)).not.toContain(KEY);
  });

  it('a secret plain enough to be part of what the agent is (a policy pattern): refused before anything is stored', async () => {
    const db = join(dir, 'plain.db');
    // `test` is the name of a tool pack the policy allows: hidden in the stored agent, `tool.test.*` became
    // `tool.[REDACTED].*`, and the session, stored so, could never run (regression: a stored session, then a pattern error).
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> x"')] })], store: createSqliteTranscriptStore(db), pool, secrets: () => ['test'] });
    const refused = await loop.run({ agent, task: 'x' }).then(() => undefined, (error: unknown) => error);
    expect(refused).toMatchObject({ code: 'LOOP_AGENT_INVALID', message: expect.stringContaining("agent 'a': policy.allow[0] holds the value of a known secret") });
    expect((refused as Error).message).not.toContain('test');
    // Its free text is text: a secret there is hidden, and the agent stays the agent it was.
    const told = await loop.run({ agent: { ...agent, instructions: 'run the test suite' }, task: 'x' }).then(() => undefined, (error: unknown) => error);
    expect(told).toMatchObject({ code: 'LOOP_AGENT_INVALID', message: expect.stringContaining('policy.allow[0]') });
    const other = await loop.run({ agent: { name: 'a', model: 'scripted:m', instructions: 'run the test suite' }, task: 'x' });
    expect(other).toMatchObject({ status: 'DONE' });
    await loop.close();
    const store = createSqliteTranscriptStore(db, { readOnly: true });
    const sessions = await store.listSessions();
    await store.close();
    expect(sessions.map((session) => (session.agentDefinition as { instructions?: string }).instructions)).toEqual([`run the ${REDACTED} suite`]);
  });

  it('a task that quotes it: the session row, its envelopes and what its program reads hold the mark', async () => {
    const db = join(dir, 'task.db');
    const requests: GenerateOptions[] = [];
    const loop = loopOn(db, recordingPlugin([program('emit "<<<LOOP:DONE>>> " + userdata["subject"]')], requests));
    const result = await loop.run({ agent, task: `log in with ${KEY}` });
    await loop.close();
    expect(result).toMatchObject({ status: 'DONE', result: `log in with ${REDACTED}` });
    expect(requests[0]?.prompt).toContain(`log in with ${REDACTED}`);
    expect(fileBytes(db)).not.toContain(KEY);
  });

  it('approved from another controller: the program checked is the program run, and the note is hidden too', async () => {
    const db = join(dir, 'approve.db');
    const reply = program(`set k = "${KEY}"`, 'emit "<<<LOOP:DONE>>> " + tool.test.Deploy("prod") + " with " + k');
    const first = loopOn(db, recordingPlugin([reply], []));
    const paused = await first.run({ agent, task: 'deploy' });
    await first.close();
    expect(paused).toMatchObject({ status: 'PAUSED', reason: 'AWAITING_APPROVAL' });
    // Another host answers, its model with no reply left: the turn runs from the stored reply.
    const second = loopOn(db, recordingPlugin([], []));
    const done = await second.approve(paused.sid, { note: `ok, ${KEY} is the right one` });
    await second.close();
    expect(done).toMatchObject({ status: 'DONE', result: `deployed prod with ${REDACTED}` });
    const store = createSqliteTranscriptStore(db, { readOnly: true });
    const [turn] = await store.listTurns(paused.sid);
    await store.close();
    expect(turn?.approval).toMatchObject({ state: 'approved', note: `ok, ${REDACTED} is the right one` });
    expect(fileBytes(db)).not.toContain(KEY);
  });

  it('a write of the mark the reply\'s key left is refused (TOOL_ARGUMENT_REDACTED), not made with the mark', async () => {
    const db = join(dir, 'write.db');
    const effects: EffectLog = new Map();
    const loop = loopOn(db, recordingPlugin([program(`set k = "${KEY}"`, 'call tool.test.Bump(k)')], [], effects));
    const result = await loop.run({ agent: { ...agent, ceilings: { maxTurns: 1 } }, task: 'x' });
    await loop.close();
    const store = createSqliteTranscriptStore(db, { readOnly: true });
    const [turn] = await store.listTurns(result.sid);
    await store.close();
    expect(turn?.toolCalls[0]?.error?.message).toContain('[TOOL_ARGUMENT_REDACTED]');
    expect(effects.size).toBe(0);
    expect(fileBytes(db)).not.toContain(KEY);
  });

  it('a turn cancelled mid-run, resumed by another controller, ends as an uncut run of it does; its replay matches', async () => {
    const db = join(dir, 'cancel.db');
    const reply = program('set n = tool.test.Bump("c")', 'call tool.test.Sleep(300)', `emit "<<<LOOP:DONE>>> ${KEY} " + n`);
    const controller = new AbortController();
    const events: LoopEvent[] = [];
    const first = createAskLoop({
      plugins: [testPlugin({ m: [reply] })],
      store: createSqliteTranscriptStore(db),
      pool,
      secrets: () => [KEY],
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'tool-call' && event.call.name === 'tool.test.bump') controller.abort();
      },
    });
    const cancelled = await first.run({ agent, task: 'x', signal: controller.signal });
    await first.close();
    expect(cancelled).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    const second = loopOn(db, testPlugin({ m: [] }));
    const resumed = await second.resume(cancelled.sid);
    const third = loopOn(db, testPlugin({ m: [reply] }));
    const whole = await third.run({ agent, task: 'x' });
    expect(resumed).toMatchObject({ status: 'DONE', result: whole.result, turns: 1 });
    expect(whole.result).toBe(`${REDACTED} 1`);
    expect(await third.replay(cancelled.sid)).toMatchObject({ matched: true });
    expect(await third.replay(whole.sid)).toMatchObject({ matched: true });
    await second.close();
    await third.close();
    expect(fileBytes(db)).not.toContain(KEY);
  });
});
