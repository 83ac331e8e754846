/**
 * `askloop sessions` and `askloop show` on a real sessions file written by
 * `askloop run --script` (the controller, the sandbox and SQLite, no mocks).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

const envelope = (program: string) => `<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{}\n<<<NSENV:V4:ACTIONS>>>\n${program}\n<<<NSENV:V4:END>>>\n`;
const dir = mkdtempSync(join(tmpdir(), 'askloop-sessions-'));
let sid = '';

beforeAll(async () => {
  writeFileSync(
    join(dir, 'two-turns.json'),
    JSON.stringify([
      envelope('command\n  set words = tool.str.Split(userdata["subject"], " ")\n  whisper "plan", "next: shout"\n  emit "counted " + len(words)\nendcommand'),
      envelope('command\n  emit "<<<LOOP:DONE>>> " + tool.str.ToUpper(userdata["subject"])\nendcommand'),
    ]),
  );
  writeFileSync(join(dir, 'refused.json'), JSON.stringify([envelope('command\n  emit tool.fs.Read("/etc/passwd")\nendcommand')]));
  const io = captureIo({ cwd: dir });
  expect(await main(['run', 'count these words', '--script', 'two-turns.json', '--db', 'sessions.db', '--json'], io)).toBe(0);
  sid = (JSON.parse(io.out) as { sid: string }).sid;
  expect(await main(['run', 'read a secret', '--script', 'refused.json', '--db', 'sessions.db', '--json'], captureIo({ cwd: dir }))).toBe(3);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('askloop sessions', () => {
  it('--json lists every session, newest first, with sid, task, status and turns', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'sessions.db', '--json'], io)).toBe(0);
    const rows = JSON.parse(io.out) as { sid: string; task: string; status: string; turns: number; lastDecision: string | null }[];
    expect(rows.map(({ task, status, turns, lastDecision }) => ({ task, status, turns, lastDecision }))).toEqual([
      { task: 'read a secret', status: 'halted', turns: 1, lastDecision: 'HALT ERR_PERMISSIONS' },
      { task: 'count these words', status: 'done', turns: 2, lastDecision: 'DONE' },
    ]);
    expect(rows[1]?.sid).toBe(sid);
  });

  it('prints a table, filters by status, and says when there are none', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'sessions.db'], io)).toBe(0);
    expect(io.out).toMatch(/│ id\s+│ task\s+│ agent\s+│ status\s+│ turns │ changed/);
    expect(io.out).toContain(sid);
    expect(io.out).toMatch(/halted \(ERR_PERMISSIONS\)/);
    expect(io.out).not.toContain('\u001b');
    const done = captureIo({ cwd: dir });
    await main(['sessions', '--db', 'sessions.db', '--status', 'done', '--json'], done);
    expect((JSON.parse(done.out) as unknown[]).length).toBe(1);
    const none = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'missing.db'], none)).toBe(0);
    // The command it suggests starts one in that store, not in the default one (it used to leave --db out).
    expect(none.out).toBe(`No sessions in ${join(dir, 'missing.db')}. askloop run "<task>" --db ${join(dir, 'missing.db')} starts one.\n`);
  });

  it('redacts a key of the environment that a task quotes, in the table and in --json, as show does', async () => {
    const key = 'sk-test-0123456789abcdefghij';
    const env = { OPENAI_API_KEY: key };
    // Run where the key is not in the environment (`run` refuses a task holding an environment key's value): a
    // session stored so, or by a host without the variable, is listed by one that has it.
    const run = captureIo({ cwd: dir });
    expect(await main(['run', `use ${key} please`, '--script', 'refused.json', '--db', 'keyed.db', '--json'], run)).toBe(3);
    const json = Object.assign(captureIo({ cwd: dir }), { env });
    expect(await main(['sessions', '--db', 'keyed.db', '--json'], json)).toBe(0);
    expect((JSON.parse(json.out) as { task: string }[]).map(({ task }) => task)).toEqual(['use [redacted] please']);
    const table = Object.assign(captureIo({ cwd: dir }), { env });
    expect(await main(['sessions', '--db', 'keyed.db'], table)).toBe(0);
    expect(table.out).toContain('use [redacted] please');
    expect(json.out + table.out).not.toContain(key.slice(0, 12));
  });

  it('refuses a bad --status with the choices', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'sessions.db', '--status', 'finished', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out)).toMatchObject({ ok: false, error: { code: 'CLI_OPTION_INVALID', message: expect.stringContaining('running or paused or done or halted') } });
  });

  it('names the status a slip of one meant (walkthrough: halt for halted)', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'sessions.db', '--status', 'halt', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out).error.message).toBe("--status must be running or paused or done or halted, not 'halt' (did you mean 'halted'?)");
  });
});

describe('askloop show', () => {
  it('prints the session turn by turn: envelope, reply, program, tool calls, emits, whispers, decision', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['show', sid.slice(0, 8), '--db', 'sessions.db'], io)).toBe(0);
    const text = stripVTControlCharacters(io.out);
    expect(text).toContain(`session ${sid}`);
    expect(text).toContain('task     count these words');
    // The scripted model has no prices: its cost is unknown, not "$0.0000".
    expect(io.out).toMatch(/turns +2 decided · [\d,]+ tokens · unknown \(no prices\) · created/);
    for (const part of ['turn 1', 'envelope', '<<<NSENV:V4:USERDATA>>>', 'reply    scripted:script', '1 │ command', 'tool.str.Split("count these words", " ") → ["count","these","words"]', 'emit     counted 3', 'whisper  plan: next: shout', 'decision CONTINUE', 'turn 2', 'decision DONE result: COUNT THESE WORDS']) {
      expect(text).toContain(part);
    }
    // Counts agree with their nouns: each turn made one tool call.
    expect(text).toMatch(/ · 1 tool call · /);
    expect(text).not.toContain('1 tool calls');

  });

  it('lists the first 20 tool calls of a turn, then how many more; --full lists them all', async () => {
    writeFileSync(join(dir, 'many-calls.json'), JSON.stringify([envelope('command\n  for each n in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]\n    set total = tool.math.Add(n, 1000)\n  endfor\n  emit "<<<LOOP:DONE>>> " + total\nendcommand')]));
    const run = captureIo({ cwd: dir });
    expect(await main(['run', 'many calls', '--script', 'many-calls.json', '--db', 'many.db', '--json'], run)).toBe(0);
    const { sid: many } = JSON.parse(run.out) as { sid: string };
    const short = captureIo({ cwd: dir });
    expect(await main(['show', many, '--db', 'many.db'], short)).toBe(0);
    const text = stripVTControlCharacters(short.out);
    expect(text).toContain('tool.math.Add(20, 1000) → 1020');
    expect(text).not.toContain('tool.math.Add(21, 1000)');
    expect(text).toContain('… 5 more tool calls (--full shows everything)');
    expect(text).toContain('25 tool calls');
    const full = captureIo({ cwd: dir });
    expect(await main(['show', many, '--db', 'many.db', '--full'], full)).toBe(0);
    expect(stripVTControlCharacters(full.out)).toContain('tool.math.Add(25, 1000) → 1025');
    expect(full.out).not.toContain('more tool call');
  });

  it('shows the diagnostics of a refused program and the halt', async () => {
    const list = captureIo({ cwd: dir });
    await main(['sessions', '--db', 'sessions.db', '--status', 'halted', '--json'], list);
    const halted = (JSON.parse(list.out) as { sid: string }[])[0]?.sid as string;
    const io = captureIo({ cwd: dir });
    expect(await main(['show', halted, '--db', 'sessions.db'], io)).toBe(0);
    expect(io.out).toMatch(/check +✗ 2:8 SCRIPT_TOOL_/);
    expect(io.out).toContain('decision HALT ERR_PERMISSIONS');
  });

  it('--json gives the session and its turn records', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['show', sid, '--db', 'sessions.db', '--json'], io)).toBe(0);
    const shown = JSON.parse(io.out) as { ok: boolean; session: { sid: string; status: string }; turns: { turnIndex: number; emits: string[]; decision: { kind: string } }[] };
    expect(shown.ok).toBe(true);
    expect(shown.session).toMatchObject({ sid, status: 'done' });
    expect(shown.turns.map((turn) => [turn.turnIndex, turn.emits, turn.decision.kind])).toEqual([
      [1, ['counted 3'], 'CONTINUE'],
      [2, ['<<<LOOP:DONE>>> COUNT THESE WORDS'], 'DONE'],
    ]);
  });

  it("never prints a value of the environment's keys that a record or an error quotes: run, show and their --json redact it", async () => {
    const secret = 'acme-live-0123456789';
    writeFileSync(join(dir, 'echo.json'), JSON.stringify([envelope(`command\n  whisper "token", "the key is ${secret}"\n  emit "<<<LOOP:DONE>>> said ${secret}"\nendcommand`)]));
    const run = captureIo({ cwd: dir });
    run.env = { ACME_API_KEY: secret };
    expect(await main(['run', 'echo the key', '--script', 'echo.json', '--db', 'sessions.db', '--json'], run)).toBe(0);
    // The run's own output too: the key its reply wrote was hidden before the program ran (the controller's mark).
    expect(JSON.parse(run.out)).toMatchObject({ status: 'DONE', result: 'said [REDACTED]' });
    const plain = captureIo({ cwd: dir });
    plain.env = { ACME_API_KEY: secret };
    expect(await main(['run', 'echo the key', '--script', 'echo.json', '--db', 'sessions.db'], plain)).toBe(0);
    expect(plain.out).toBe('said [REDACTED]\n');
    const echoed = (JSON.parse(run.out) as { sid: string }).sid;
    for (const json of [false, true]) {
      const io = captureIo({ cwd: dir });
      io.env = { ACME_API_KEY: secret };
      expect(await main(['show', echoed, '--db', 'sessions.db', ...(json ? ['--json'] : [])], io)).toBe(0);
      expect(io.out).not.toContain(secret);
      expect(io.out).toContain('the key is [REDACTED]');
    }
    // An error quoting what it was given: the id here.
    const error = captureIo({ cwd: dir });
    error.env = { ACME_API_KEY: secret };
    expect(await main(['show', secret, '--db', 'sessions.db'], error)).toBe(1);
    expect(error.err).toContain("no session '[redacted]'");
    expect(error.err).not.toContain(secret);
  });

  it('an unknown session is LOOP_SESSION_NOT_FOUND (exit 1)', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['show', 'no-such-session', '--db', 'sessions.db', '--json'], io)).toBe(1);
    expect(JSON.parse(io.out)).toMatchObject({ ok: false, error: { code: 'LOOP_SESSION_NOT_FOUND' } });
  });

  it('an id no store holds (empty, with U+0000) is LOOP_SESSION_NOT_FOUND as an unknown one is, the control character escaped', async () => {
    const empty = captureIo({ cwd: dir });
    expect(await main(['show', '', '--db', 'sessions.db', '--json'], empty)).toBe(1);
    expect(JSON.parse(empty.out)).toMatchObject({ ok: false, error: { code: 'LOOP_SESSION_NOT_FOUND', message: `no session '' in ${join(dir, 'sessions.db')}; give at least 4 characters of an id; askloop sessions lists them` } });
    const nul = captureIo({ cwd: dir });
    expect(await main(['show', `${sid.slice(0, 8)}\u0000`, '--db', 'sessions.db', '--json'], nul)).toBe(1);
    expect(JSON.parse(nul.out)).toMatchObject({
      ok: false,
      error: { code: 'LOOP_SESSION_NOT_FOUND', message: `no session ${JSON.stringify(`${sid.slice(0, 8)}\u0000`)} in ${join(dir, 'sessions.db')}; a session id must not contain control characters, got U+0000 at index 8; askloop sessions lists them` },
    });
  });
});
