/**
 * `askloop run`, `approve`, `resume` and `replay` end to end: the real CLI in
 * a child process, the real controller, sandbox, tools and SQLite sessions
 * file, the scripted provider for the model.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createSqliteTranscriptStore } from '@askloop/controller';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { CLI_SOURCE, spawnCli } from './spawn-cli.ts';
import { envelope } from './envelope-reply.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'askloop-run-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function file(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const JSON_KEYS = ['status', 'reason', 'result', 'turns', 'sid', 'decisions'];

describe('askloop run (the real CLI)', () => {
  it('runs to DONE: the task is USERDATA subject, exit 0, the --json object exactly as specified', async () => {
    const script = await file('done.json', [envelope('emit "<<<LOOP:DONE>>> " + tool.str.ToUpper(userdata["subject"])')]);
    const db = join(dir, 'done.db');
    const run = await spawnCli(['run', 'shout this', '--script', script, '--db', db, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(Object.keys(result)).toEqual(JSON_KEYS);
    expect(result).toEqual({ status: 'DONE', reason: null, result: 'SHOUT THIS', turns: 1, sid: expect.stringMatching(/^[0-9a-f-]{36}$/), decisions: [{ turn: 1, decision: 'DONE', reason: null }] });
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);

    const replay = await spawnCli(['replay', result.sid, '--db', db]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toBe(`replay of ${result.sid}: matched (1 turn)\n`);
  });

  it('halts with exit 3 and ERR_PROVIDER when the scripted replies run out', async () => {
    const script = await file('short.json', [envelope('emit "step one"')]);
    const run = await spawnCli(['run', 'two steps', '--script', script, '--db', join(dir, 'halt.db'), '--json']);
    expect(run.code).toBe(3);
    const result = JSON.parse(run.stdout);
    // A HALT adds why, after the fixed keys: the decision's message and the last turn's failure.
    expect(Object.keys(result)).toEqual([...JSON_KEYS, 'message', 'failure']);
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', result: null, turns: 2, failure: { code: 'PROVIDER_SCRIPT_EXHAUSTED' } });
    expect(result.decisions).toEqual([
      { turn: 1, decision: 'CONTINUE', reason: null },
      { turn: 2, decision: 'HALT', reason: 'ERR_PROVIDER' },
    ]);
  });

  it('resumes a session whose model call failed (ERR_PROVIDER): the turn asks the model again', async () => {
    const script = await file('outage.json', [envelope('emit "step one"')]);
    const db = join(dir, 'outage.db');
    const run = await spawnCli(['run', 'two steps', '--script', script, '--db', db]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('askloop: HALT ERR_PROVIDER after 2 turns');
    const sid = /session ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
    expect(run.stderr).toContain(`continue with: askloop resume ${sid} --db`);
    // The model is back (here: the script has the reply turn 2 asked for); resume asks it again and finishes.
    await file('outage.json', [envelope('emit "step one"'), envelope('emit "<<<LOOP:DONE>>> step two"')]);
    const resumed = await spawnCli(['resume', sid!, '--script', script, '--db', db, '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'DONE', result: 'step two', turns: 2 });
  });

  it('says why a HALT happened without --json', async () => {
    const script = await file('short-text.json', [envelope('emit "step one"')]);
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'two steps', '--script', script, '--db', 'halt-text.db'], io)).toBe(3);
    expect(io.out).toBe('');
    // The code once: the provider's message names it after the model.
    // A failed model call is resumable: the closing line says how to go on.
    expect(io.err).toMatch(/turn 2: HALT ERR_PROVIDER\naskloop: HALT ERR_PROVIDER after 2 turns \(session ([0-9a-f-]{36})\); continue with: askloop resume \1 --db \S+ --script \S+\n {2}cause: \[scripted:script\] PROVIDER_SCRIPT_EXHAUSTED: .+\n$/);
    expect(io.err.match(/PROVIDER_SCRIPT_EXHAUSTED/g)).toHaveLength(1);
  });

  it('prints the result on standard output and one line per turn on standard error without --json', async () => {
    const script = await file('text.json', [envelope('emit "thinking"'), envelope('emit "<<<LOOP:DONE>>> 42"')]);
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'answer', '--script', script, '--db', 'text.db', '--max-turns', '3'], io)).toBe(0);
    expect(io.out).toBe('42\n');
    expect(io.err).toMatch(/^ {2}turn 1: CONTINUE\n {2}turn 2: DONE\naskloop: DONE after 2 turns \(session [0-9a-f-]{36}\)\n$/);
  });

  it('on a terminal, shows the live progress (program, tool calls, decision, summary with the sessions file) instead of the plain lines', async () => {
    const script = await file('tty.json', [envelope('emit "<<<LOOP:DONE>>> " + tool.str.ToUpper("ok")')]);
    const io = captureIo({ cwd: dir });
    // A terminal as standard error; CI and NO_COLOR keep the spinner and the colour out of the captured text.
    io.env = { CI: '1', NO_COLOR: '1' };
    io.stderrTerminal = { write: (text: string) => ((io.err += text), true), columns: 120 } as unknown as NodeJS.WriteStream;
    expect(await main(['run', 'answer', '--script', script, '--db', 'tty.db', '--max-turns', '3'], io)).toBe(0);
    expect(io.out).toBe('OK\n');
    expect(io.err).toContain('\nturn 1\n');
    expect(io.err).toContain('    2 │   emit "<<<LOOP:DONE>>> " + tool.str.ToUpper("ok")\n');
    expect(io.err).toMatch(/ {2}tool {5}tool\.str\.ToUpper\("ok"\) → "OK"/);
    expect(io.err).toMatch(/left: 2 turns/);
    expect(io.err).toContain(`stored in ${join(dir, 'tty.db')}`);
    expect(io.err).not.toContain('askloop: DONE after');
  });

  it('keeps sessions under XDG_DATA_HOME when no --db is given', async () => {
    const script = await file('xdg.json', [envelope('emit "<<<LOOP:DONE>>> stored"')]);
    const data = join(dir, 'xdg-data');
    const run = await spawnCli(['run', 'where', '--script', script, '--json'], { env: { XDG_DATA_HOME: data } });
    expect(run.code).toBe(0);
    const { sid } = JSON.parse(run.stdout);
    const database = new DatabaseSync(join(data, 'askloop', 'sessions.db'));
    expect(database.prepare('SELECT status FROM controller_sessions WHERE sid = ?').get(sid)).toEqual({ status: 'done' });
    database.close();
  });

  // Node's recursive mkdir never returns under /proc (it spins a core): the folder is made without it.
  it.runIf(existsSync('/proc/self'))('refuses a sessions folder that cannot be made under /proc at once, by --db or XDG_DATA_HOME', async () => {
    const script = await file('proc.json', [envelope('emit "<<<LOOP:DONE>>> never"')]);
    const io = captureIo({ cwd: dir });
    io.env['XDG_DATA_HOME'] = '/proc/askloop-nowhere';
    expect(await main(['run', 'where', '--script', script], io)).toBe(2);
    expect(io.err).toContain("the default sessions file /proc/askloop-nowhere/askloop/sessions.db: cannot create its folder: ENOENT: no such file or directory, mkdir '/proc/askloop-nowhere'; give --db FILE, or set XDG_DATA_HOME to a folder you can write (CLI_FILE_UNREADABLE)");
    const given = captureIo({ cwd: dir });
    expect(await main(['run', 'where', '--script', script, '--db', '/proc/askloop-nowhere/s.db'], given)).toBe(2);
    expect(given.err).toContain("--db /proc/askloop-nowhere/s.db: cannot create its folder: ENOENT");
  });

  it.each([
    [[], 'askloop run needs a task'],
    [['two', 'words'], 'askloop run takes one task; quote it: askloop run "two words"'],
    // Walkthrough: options after '--' were folded into the suggested task.
    [['--', '-dash task', '--script', 'f.json'], `askloop run takes one task, and every argument after '--' is part of it: put the options before '--' (askloop run [options] -- "-dash task")`],
    // Review: a lone '-' in an unquoted task is no '--'.
    [['fix', 'the', '-', 'bug'], 'askloop run takes one task; quote it: askloop run "fix the - bug"'],
    [['t', '--model', 'openai:x', '--script', 'x.json'], '--script and --model both choose the model; give one'],
    [['t'], 'no model: give --model PROVIDER:MODEL, --script FILE, or --agent FILE|NAME (an agent file with a "model", or an agent of askloop.config.yaml), or set models.default in askloop.config.yaml'],
    [['t', '--model', 'gpt4'], "--model must be provider:model (e.g. openai:gpt-4.1-mini), not 'gpt4'"],
    [['t', '--model', 'openai:x', '--max-turns', '0'], "--max-turns must be a whole number from 1 to 10000 turns, not '0'"],
    [['t', '--model', 'openai:x', '--repair', '1.5'], "--repair must be a whole number from 0 to 100 failures, not '1.5'"],
    [['t', '--model', 'openai:x', '--dialect', 'v3'], "--dialect must be v4 or v1, not 'v3'"],
    [['t', '--model', 'openai:x', '--dialect', 'V4'], "--dialect must be v4 or v1, not 'V4' (did you mean 'v4'?)"],
    [['t', '--model', 'openai:x', '--grant', 'disk:read'], "--grant disk:read: unknown resource 'disk'"],
    [['t', '--model', 'openai:x', '--frobnicate'], "unknown option '--frobnicate'"],
  ])('askloop run %j is a usage error: exit 2, nothing runs', async (args, message) => {
    const io = captureIo({ cwd: dir });
    expect(await main(['run', ...args, '--db', 'usage.db'], io)).toBe(2);
    expect(io.err).toContain(message);
    expect(io.err).toContain("Run 'askloop run --help' for usage.");
    expect(io.out).toBe('');
  });

  it('refuses a bad agent file with exit 1, naming the file, the path and the line', async () => {
    const agent = await file('agent.yaml', 'name: planner\nmodel: openai:gpt-4.1-mini\nceilings:\n  maxTurn: 3\n');
    const run = await spawnCli(['run', 'task', '--agent', agent, '--db', join(dir, 'agent.db'), '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: false,
      error: { code: 'LOOP_AGENT_INVALID', file: agent, message: "invalid agent definition: ceilings.maxTurn (line 4): unknown key 'maxTurn'; did you mean 'maxTurns'? (known: maxTurns, wallMs, fuel, tokens, costUsd, toolCalls)" },
    });
    const text = await spawnCli(['run', 'task', '--agent', agent, '--db', join(dir, 'agent.db')]);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe(`askloop: ${agent}: invalid agent definition: ceilings.maxTurn (line 4): unknown key 'maxTurn'; did you mean 'maxTurns'? (known: maxTurns, wallMs, fuel, tokens, costUsd, toolCalls) (LOOP_AGENT_INVALID)\n`);
  });

  it('runs an agent file whose options the command line overrides', async () => {
    const agent = await file('good.json', { name: 'shouter', model: 'openai:never-called', policy: { allow: ['tool.math.*'] } });
    const script = await file('agent-script.json', [envelope('emit "<<<LOOP:DONE>>> " + tool.str.ToUpper("x")')]);
    const io = captureIo({ cwd: dir });
    // The file allows only tool.math.*: the program is refused; --allow on the command line replaces the list.
    expect(await main(['run', 't', '--agent', agent, '--script', script, '--db', 'agent2.db', '--json'], io)).toBe(3);
    expect(JSON.parse(io.out)).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS' });
    const allowed = captureIo({ cwd: dir });
    expect(await main(['run', 't', '--agent', agent, '--script', script, '--allow', 'tool.str.*', '--db', 'agent2.db', '--json'], allowed)).toBe(0);
    expect(JSON.parse(allowed.out)).toMatchObject({ status: 'DONE', result: 'X' });
  });

  it("runs an agent file without a model when --script or --model chooses one, and names the file's gap otherwise", async () => {
    const agent = await file('no-model.json', { name: 'modelless', ceilings: { maxTurns: 2 } });
    const script = await file('no-model-script.json', [envelope('emit "<<<LOOP:DONE>>> scripted"')]);
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 't', '--agent', agent, '--script', script, '--db', 'no-model.db', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ status: 'DONE', result: 'scripted' });
    const without = captureIo({ cwd: dir });
    expect(await main(['run', 't', '--agent', agent, '--db', 'no-model.db', '--json'], without)).toBe(1);
    expect(JSON.parse(without.out).error).toMatchObject({ code: 'LOOP_AGENT_INVALID', message: expect.stringContaining("missing required key 'model'") });
  });

  it('approve, replay and resume take the start of an id, as show does; too short a start says how long', async () => {
    const script = await file('prefix.json', [envelope('emit "[[loop:await]]"'), envelope('emit "[[loop:done]] ok"')]);
    const db = join(dir, 'prefix.db');
    const paused = await spawnCli(['run', 'prefix', '--script', script, '--dialect', 'v1', '--db', db, '--json']);
    expect(paused.code).toBe(4);
    const sid: string = JSON.parse(paused.stdout).sid;
    const approved = await spawnCli(['approve', sid.slice(0, 8), '--script', script, '--db', db, '--json']);
    expect({ code: approved.code, stderr: approved.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(approved.stdout)).toMatchObject({ status: 'DONE', sid, result: 'ok' });
    const replay = await spawnCli(['replay', sid.slice(0, 6), '--db', db, '--json']);
    expect({ code: replay.code, sid: JSON.parse(replay.stdout).sid, matched: JSON.parse(replay.stdout).matched }).toEqual({ code: 0, sid, matched: true });
    const short = await spawnCli(['resume', sid.slice(0, 2), '--db', db, '--json']);
    expect(short.code).toBe(1);
    expect(JSON.parse(short.stdout).error).toMatchObject({ code: 'LOOP_SESSION_NOT_FOUND', message: expect.stringContaining('give at least 4 characters of an id') });
  });

  it('pauses with exit 4 and says how to approve; approve SID continues with the unused replies', async () => {
    const script = await file('await.json', [
      envelope('emit "[[loop:await:approval_id=Q7K2G]]"', 'emit "plan: delete old logs"'),
      envelope('emit "[[loop:done]] applied"'),
    ]);
    const db = join(dir, 'await.db');
    const paused = await spawnCli(['run', 'clean up', '--script', script, '--dialect', 'v1', '--db', db]);
    expect(paused.code).toBe(4);
    const sid = /approve: askloop approve ([0-9a-f-]{36})/.exec(paused.stderr)?.[1];
    expect(sid).toBeDefined();
    // The hints carry what approve and deny need again: the same script and sessions file.
    expect(paused.stderr).toContain(`askloop deny ${sid} --db ${db} --script ${script} [--note TEXT]`);
    expect(paused.stderr).toContain(`askloop: PAUSED (V1_AWAIT) at turn 1: session ${sid} waits for a person to answer.`);

    // Without the script its scripted model would have no replies left and the session would halt for good: refused first.
    const noScript = await spawnCli(['approve', sid!, '--db', db]);
    expect(noScript.code).toBe(2);
    expect(noScript.stderr).toContain(`askloop: session ${sid} runs on the scripted model 'scripted:script', whose replies come from --script; nothing ran and session ${sid} still waits. To go on, give the file its run used: askloop approve ${sid} --db ${db} --script ${script} (CLI_USAGE)`);

    const approved = await spawnCli(['approve', sid!, '--note', 'ok by ops', '--script', script, '--db', db, '--json']);
    expect(approved.code).toBe(0);
    const result = JSON.parse(approved.stdout);
    expect(Object.keys(result)).toEqual(JSON_KEYS);
    expect(result).toMatchObject({ status: 'DONE', result: 'applied', sid });
    expect(result.decisions.map((entry: { decision: string }) => entry.decision)).toEqual(['PAUSE', 'DONE']);

    const again = await spawnCli(['approve', sid!, '--db', db, '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error.code).toBe('LOOP_APPROVAL_NOT_PENDING');
  });

  it('replays a stored session, and reports the first divergence of a tampered one with exit 1', async () => {
    const script = await file('replay.json', [envelope('emit "first " + tool.math.Add(1, 2)'), envelope('emit "<<<LOOP:DONE>>> finished"')]);
    const db = join(dir, 'replay.db');
    const run = await spawnCli(['run', 'count', '--script', script, '--db', db, '--json']);
    const { sid } = JSON.parse(run.stdout);
    const matched = await spawnCli(['replay', sid, '--db', db, '--json']);
    expect(matched.code).toBe(0);
    expect(JSON.parse(matched.stdout)).toEqual({ sid, matched: true, turns: 2, divergence: null });

    // Tamper with the recorded OUTPUT of turn 1: the replay runs the same program and sees another OUTPUT.
    const database = new DatabaseSync(db);
    database.prepare("UPDATE controller_turns SET record = json_set(record, '$.output', 'first 4\n') WHERE sid = ? AND turn_index = 1").run(sid);
    database.close();
    const diverged = await spawnCli(['replay', sid, '--db', db, '--json']);
    expect(diverged.code).toBe(1);
    expect(JSON.parse(diverged.stdout)).toEqual({ sid, matched: false, turns: 2, divergence: { turnIndex: 1, field: 'output', recorded: 'first 4\n', replayed: 'first 3\n' } });
    const text = await spawnCli(['replay', sid, '--db', db]);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe(`replay of ${sid}: diverged at turn 1, output: recorded "first 4\\n", replayed "first 3\\n"\n`);
  });

  it('deny SID halts ERR_PERMISSIONS with exit 3; an unknown provider cannot start (exit 1)', async () => {
    const script = await file('deny.json', [envelope('emit "[[loop:await:approval_id=A1]]"')]);
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'risky', '--script', script, '--dialect', 'v1', '--db', 'deny.db', '--json'], io)).toBe(4);
    const paused = JSON.parse(io.out);
    expect(paused).toMatchObject({ status: 'PAUSED', reason: 'V1_AWAIT', result: null });
    const denied = captureIo({ cwd: dir });
    expect(await main(['deny', paused.sid, '--note', 'not today', '--db', 'deny.db', '--json'], denied)).toBe(3);
    expect(JSON.parse(denied.out)).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS', sid: paused.sid });

    const unknown = captureIo({ cwd: dir });
    expect(await main(['run', 't', '--model', 'nowhere:m', '--db', 'deny.db', '--json'], unknown)).toBe(1);
    expect(JSON.parse(unknown.out).error).toMatchObject({ code: 'LOOP_PROVIDER_NOT_FOUND', message: expect.stringContaining('nowhere') });
  });

  it('names an unknown session (exit 1), a missing sessions file (exit 2), and needs exactly one SID (exit 2)', async () => {
    await createSqliteTranscriptStore(join(dir, 'empty.db')).close();
    const io = captureIo({ cwd: dir });
    expect(await main(['resume', 'no-such-session', '--db', 'empty.db', '--json'], io)).toBe(1);
    expect(JSON.parse(io.out).error).toMatchObject({ code: 'LOOP_SESSION_NOT_FOUND' });
    const usage = captureIo({ cwd: dir });
    expect(await main(['replay', '--db', 'empty.db'], usage)).toBe(2);
    expect(usage.err).toContain('askloop replay takes one session id (SID), got 0');
    const missing = captureIo({ cwd: dir });
    expect(await main(['approve', 'some-sid', '--db', 'missing.db', '--json'], missing)).toBe(2);
    expect(JSON.parse(missing.out).error).toEqual({ code: 'CLI_FILE_UNREADABLE', file: 'missing.db', message: 'no sessions file here; run a session with askloop run first' });
  });

  it('Ctrl-C halts ERR_CANCELLED (exit 3, resumable) and resume SID finishes the session', async () => {
    const script = await file('cancel.json', [envelope('emit "<<<LOOP:DONE>>> resumed fine"')]);
    // Interrupt as soon as the command listens: the loop stops at its first step.
    const io = captureIo({ cwd: dir });
    io.onInterrupt = (handler) => {
      // Once the run has begun (a signal aborted before it is LOOP_CANCELLED, nothing stored): as a Ctrl-C comes.
      queueMicrotask(() => handler('SIGINT'));
      return () => {};
    };
    expect(await main(['run', 't', '--script', script, '--db', 'cancel.db'], io)).toBe(3);
    const sid = /HALT ERR_CANCELLED after \d+ turns? \(session ([0-9a-f-]{36})\); continue with: askloop resume \1/.exec(io.err)?.[1];
    expect(sid).toBeDefined();
    const resumed = captureIo({ cwd: dir });
    expect(await main(['resume', sid!, '--script', script, '--db', 'cancel.db', '--json'], resumed)).toBe(0);
    expect(JSON.parse(resumed.out)).toMatchObject({ status: 'DONE', result: 'resumed fine', sid });
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('a %s before the loop begins stores nothing and exits %i, the shell\'s code for it', async (signal, exit) => {
    const script = await file('early.json', [envelope('emit "<<<LOOP:DONE>>> never"')]);
    const io = captureIo({ cwd: dir });
    // At once, as the command starts listening: the controller refuses the aborted call before it stores anything.
    io.onInterrupt = (handler) => {
      handler(signal);
      return () => {};
    };
    expect(await main(['run', 't', '--script', script, '--db', `early-${signal}.db`], io)).toBe(exit);
    expect(io.err).toMatch(/askloop: interrupted before the loop began: nothing ran and no session was created \(LOOP_CANCELLED\)\n$/);
    const json = captureIo({ cwd: dir });
    json.onInterrupt = io.onInterrupt;
    expect(await main(['run', 't', '--script', script, '--db', `early-${signal}.db`, '--json'], json)).toBe(exit);
    expect(JSON.parse(json.out)).toEqual({ ok: false, error: { code: 'LOOP_CANCELLED', message: 'interrupted before the loop began: nothing ran and no session was created' } });
    const listed = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', `early-${signal}.db`, '--json'], listed)).toBe(0);
    expect(JSON.parse(listed.out)).toEqual([]);
  });

  it('on a terminal, Ctrl-C while the spinner turns stops it first, so the message has its own line', async () => {
    let interrupt: ((signal: 'SIGINT' | 'SIGTERM') => void) | undefined;
    // A loopback "Ollama" that takes the request and never answers; Ctrl-C comes while the spinner waits for it.
    const server = createServer(() => setTimeout(() => interrupt?.('SIGINT'), 200));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const io = captureIo({ cwd: dir });
      // Providers read their settings from the process environment.
      process.env['OLLAMA_HOST'] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const write = (text: string) => ((io.err += text), true);
      // What the spinner uses of a terminal stream: write, and the cursor moves as the escapes they send.
      const terminal = { isTTY: true, columns: 120, write, cursorTo: () => write('\u001b[1G'), moveCursor: () => true, clearLine: () => write('\u001b[0K') };
      io.stderrTerminal = terminal as unknown as NodeJS.WriteStream;
      io.onInterrupt = (handler) => {
        interrupt = handler;
        return () => {};
      };
      expect(await main(['run', 't', '--model', 'ollama:m', '--db', 'tty-cancel.db'], io)).toBe(3);
      expect(io.err).toContain('model thinking');
      const before = io.err.slice(0, io.err.indexOf('askloop: stopping after the current step'));
      // The spinner's line is erased (or ended) before the message is written.
      expect(before).toMatch(/(\n|\u001b\[0K)$/);
      expect(io.err).toContain('to go on from the cancelled turn');
    } finally {
      delete process.env['OLLAMA_HOST'];
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each([
    ['SIGINT', 'askloop: stopping after the current step (Ctrl-C again to quit at once)'],
    ['SIGTERM', 'askloop: SIGTERM: stopping after the current step (a second one quits at once)'],
  ] as const)('a real %s during the model call halts ERR_CANCELLED with exit 3, and says how to resume', async (signal, said) => {
    // A loopback "Ollama" that takes the request and never answers: the CLI is interrupted while it waits.
    const child = { current: undefined as ReturnType<typeof spawn> | undefined };
    const server = createServer(() => child.current?.kill(signal));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const process_ = spawn(process.execPath, ['--conditions=@askloop/source', '--no-warnings', CLI_SOURCE, 'run', 'wait', '--model', 'ollama:slow', '--db', join(dir, `${signal}.db`)], {
        env: { ...process.env, OLLAMA_HOST: host },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.current = process_;
      let stderr = '';
      process_.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      const code = await new Promise<number | null>((resolve) => process_.on('close', resolve));
      expect(stderr).toContain(said);
      expect(stderr).toMatch(/askloop: HALT ERR_CANCELLED after 1 turn \(session ([0-9a-f-]{36})\); continue with: askloop resume \1/);
      expect(code).toBe(3);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
