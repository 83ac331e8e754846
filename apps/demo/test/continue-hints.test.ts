/**
 * The next steps printed after a pause (`askloop approve|deny SID …`) or a
 * Ctrl-C (`askloop resume SID …`) carry the options the continuation needs
 * (`--db`, `--config`, `--script`, `--fs-root`, `--mcp-config`), absolute and
 * shell-quoted, so following the hint from anywhere continues the session
 * as it ran — and a store URL's password is never shown.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { continueArgs } from '../src/loop/continue-hint.ts';
import { shellQuote } from '../src/shell-quote.ts';
import { main } from '../src/main.ts';
import { captureIo, type CapturedIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';
import { tempFolder, writeFiles } from './temp-folder.ts';

const MEMORY_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const top = tempFolder('hints');
// A folder whose name needs quoting in a shell.
const project = join(top, "it's a project");
writeFiles(project, {
  'root/note.txt': 'hello',
  'mcp.json': JSON.stringify({ servers: { memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: join(project, 'memory.jsonl') } } } }),
  'team.yaml': 'ceilings: { maxTurns: 8 }\n',
  // Turn 1 writes to the MCP server (its destructive tool needs approval: PAUSE); turn 2 reads a file under --fs-root.
  'replies.json': JSON.stringify([
    envelope('call tool.memory.delete_entities(["nobody"])', 'emit "deleted"'),
    envelope('set text = tool.fs.Read("/note.txt")', 'emit "<<<LOOP:DONE>>> " + text'),
  ]),
});

const RUN_OPTIONS = ['--script', 'replies.json', '--db', 'sessions.db', '--config', 'team.yaml', '--fs-root', 'root', '--mcp-config', 'mcp.json', '--allow', 'tool.memory.*', '--allow', 'tool.fs.*', '--grant', 'mcp:call:memory', '--grant', 'fs:read:/**'];

/** Splits a line the way sh does, for the plain words and single quotes shellQuote writes. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  for (const [, quoted, plain] of text.matchAll(/((?:'[^']*'|\\')+)|(\S+)/g)) {
    words.push(quoted === undefined ? plain! : quoted.replace(/'([^']*)'|\\(')/g, (_, inside: string | undefined, escaped: string | undefined) => inside ?? escaped ?? ''));
  }
  return words;
}

/** The words after `askloop` in the line `prefix askloop …`, without `[--note TEXT]`. */
function hintWords(err: string, prefix: RegExp): string[] {
  const line = err.split('\n').find((candidate) => prefix.test(candidate));
  expect(line, err).toBeDefined();
  return shellWords(line!.replace(prefix, '').replace(/ \[--note TEXT\]$/, '').replace(/ to go on.*$/, ''));
}

describe('the next steps carry the options a continuation needs', () => {
  it('after a PAUSE, in a pipe: following the approve hint from another folder finishes the session (MCP tools, script, fs root, config, store)', async () => {
    const run = captureIo({ cwd: project });
    expect(await main(['run', 'tidy up', ...RUN_OPTIONS], run)).toBe(4);
    const approve = hintWords(run.err, /^ {2}approve: askloop /);
    const deny = hintWords(run.err, /^ {2}deny: {4}askloop /);
    expect(approve.slice(2)).toEqual(['--db', join(project, 'sessions.db'), '--config', join(project, 'team.yaml'), '--script', join(project, 'replies.json'), '--fs-root', join(project, 'root'), '--mcp-config', join(project, 'mcp.json')]);
    expect(deny.slice(2)).toEqual(approve.slice(2));

    // Elsewhere: relative paths would no longer find anything.
    const approved = captureIo({ cwd: top });
    expect(await main(approve, approved), approved.err).toBe(0);
    expect(approved.out).toBe('hello\n');
  });

  it('approve SID without --mcp-config, of a PAUSE on an MCP tool: refused LOOP_TOOLS_MISSING with the whole command to paste, which finishes the session', async () => {
    const run = captureIo({ cwd: project });
    expect(await main(['run', 'tidy up', ...RUN_OPTIONS.map((word) => (word === 'sessions.db' ? 'bare.db' : word))], run)).toBe(4);
    const sid = hintWords(run.err, /^ {2}approve: askloop /)[1]!;
    const bare = captureIo({ cwd: top });
    // Its script and config given (without either the refusal is CLI_USAGE, which prints the command too), not its --mcp-config.
    expect(await main(['approve', sid, '--db', join(project, 'bare.db'), '--script', join(project, 'replies.json'), '--config', join(project, 'team.yaml')], bare)).toBe(1);
    expect(bare.err).toContain('(LOOP_TOOLS_MISSING)');
    const line = bare.err.split('\n').find((candidate) => candidate.includes('The options of the run: askloop '));
    expect(line, bare.err).toBeDefined();
    const words = shellWords(line!.slice(line!.indexOf('The options of the run: askloop ') + 'The options of the run: askloop '.length).replace(/ \(LOOP_TOOLS_MISSING\)$/, ''));
    expect(words.slice(0, 2)).toEqual(['approve', sid]);
    expect(words).toContain('--mcp-config');
    const approved = captureIo({ cwd: top });
    expect(await main(words, approved), approved.err).toBe(0);
    expect(approved.out).toBe('hello\n');
  });

  it('resume --detach of a sessions file says --detach needs PostgreSQL, also for an id the file does not hold', async () => {
    const run = captureIo({ cwd: project });
    expect(await main(['run', 'tidy up', ...RUN_OPTIONS.map((word) => (word === 'sessions.db' ? 'detach.db' : word))], run)).toBe(4);
    for (const id of [hintWords(run.err, /^ {2}approve: askloop /)[1]!, 'c14d5b4b']) {
      const detached = captureIo({ cwd: project });
      expect(await main(['resume', id, '--db', 'detach.db', '--detach'], detached)).toBe(2);
      // It used to say of an unknown id "no session … (LOOP_SESSION_NOT_FOUND)": the user had only forgotten --db postgres://…
      expect(detached.err).toContain('--detach queues the session for `askloop worker`, which needs a PostgreSQL store');
    }
  });

  it('approve SID without --mcp-config, its options not kept (a session a library made): refused without a command that would only repeat it', async () => {
    const run = captureIo({ cwd: project });
    expect(await main(['run', 'tidy up', ...RUN_OPTIONS.map((word) => (word === 'sessions.db' ? 'unkept.db' : word))], run)).toBe(4);
    const sid = hintWords(run.err, /^ {2}approve: askloop /)[1]!;
    const database = new DatabaseSync(join(project, 'unkept.db'));
    database.prepare('DELETE FROM askloop_cli_continue').run();
    database.close();
    const bare = captureIo({ cwd: top });
    expect(await main(['approve', sid, '--db', join(project, 'unkept.db'), '--script', join(project, 'replies.json')], bare)).toBe(1);
    expect(bare.err).toContain('(LOOP_TOOLS_MISSING)');
    expect(bare.err).not.toContain('The options of the run');
  });

  it('resume SID --db FILE alone, of that PAUSE: its hint still carries the run options (kept with the session), and following it finishes the session', async () => {
    const run = captureIo({ cwd: project });
    expect(await main(['run', 'tidy up', ...RUN_OPTIONS.map((word) => (word === 'sessions.db' ? 'alone.db' : word))], run)).toBe(4);
    const sid = hintWords(run.err, /^ {2}approve: askloop /)[1]!;
    // From another folder, with nothing but the store: resume finds the session still paused and says how to answer it.
    const resume = captureIo({ cwd: top });
    expect(await main(['resume', sid, '--db', join(project, 'alone.db')], resume)).toBe(4);
    const approve = hintWords(resume.err, /^ {2}approve: askloop /);
    expect(approve.slice(2)).toEqual(['--db', join(project, 'alone.db'), '--config', join(project, 'team.yaml'), '--script', join(project, 'replies.json'), '--fs-root', join(project, 'root'), '--mcp-config', join(project, 'mcp.json')]);
    expect(hintWords(resume.err, /^ {2}deny: {4}askloop /).slice(2)).toEqual(approve.slice(2));
    const approved = captureIo({ cwd: top });
    expect(await main(approve, approved), approved.err).toBe(0);
    expect(approved.out).toBe('hello\n');
  });

  it('after a PAUSE, on a terminal: the summary names the same commands', async () => {
    const run = captureIo({ cwd: project });
    run.env = { CI: '1', NO_COLOR: '1' };
    run.stderrTerminal = { write: (text: string) => ((run.err += text), true), columns: 400 } as unknown as NodeJS.WriteStream;
    expect(await main(['run', 'tidy up', ...RUN_OPTIONS], run)).toBe(4);
    const line = run.err.split('\n').find((candidate) => candidate.includes('to go on'));
    expect(line).toMatch(/^ {2}askloop approve [0-9a-f-]{36} .+ or askloop deny [0-9a-f-]{36} .+ to go on$/);
    const approve = shellWords(line!.replace(/^ {2}askloop /, '').replace(/ or askloop deny.*$/, ''));
    expect(approve).toContain('--mcp-config');
    const approved = captureIo({ cwd: top });
    expect(await main(approve, approved), approved.err).toBe(0);
    expect(approved.out).toBe('hello\n');
  });

  it('after a Ctrl-C: the resume hint carries the script and the store, and following it finishes the session', async () => {
    const run = captureIo({ cwd: project });
    run.onInterrupt = (handler) => {
      // Once the run has begun (a signal aborted before it is LOOP_CANCELLED, nothing stored): as a Ctrl-C comes.
      queueMicrotask(() => handler('SIGINT'));
      return () => {};
    };
    writeFileSync(join(project, 'done.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> resumed"')]));
    expect(await main(['run', 't', '--script', 'done.json', '--db', 'cancel.db'], run)).toBe(3);
    const resume = hintWords(run.err, /^askloop: HALT ERR_CANCELLED after \d+ turns? \(session [0-9a-f-]{36}\); continue with: askloop /);
    expect(resume.slice(2)).toEqual(['--db', join(project, 'cancel.db'), '--script', join(project, 'done.json')]);
    const resumed = captureIo({ cwd: top });
    expect(await main(resume, resumed), resumed.err).toBe(0);
    expect(resumed.out).toBe('resumed\n');
  });
});

describe('continueArgs', () => {
  it('shows a store URL without its password, and says so', () => {
    expect(continueArgs({ db: 'postgres://u:hunter2pass@db/askloop' }, '/w')).toEqual({ text: " --db 'postgres://u:***@db/askloop'", dbRedacted: true });
    expect(continueArgs({ db: 'postgres://u@db/askloop?password=hunter2pass&sslmode=disable' }, '/w')).toEqual({ text: " --db 'postgres://u@db/askloop?password=***&sslmode=disable'", dbRedacted: true });
    expect(continueArgs({ db: 'postgres://u@db/askloop' }, '/w')).toEqual({ text: ' --db postgres://u@db/askloop', dbRedacted: false });
    expect(continueArgs(undefined, '/w')).toEqual({ text: '', dbRedacted: false });
  });

  it('quotes what a shell would split or expand', () => {
    expect(shellQuote('/a/b.json')).toBe('/a/b.json');
    expect(shellQuote("/it's here/x")).toBe("'/it'\\''s here/x'");
    expect(shellQuote('$HOME;rm')).toBe("'$HOME;rm'");
    expect(shellQuote('')).toBe("''");
  });
});

describe('a redacted --db in the printed hint', () => {
  it('is said to need the same --db', async () => {
    const { printLoopResult } = await import('../src/loop/print-loop-result.ts');
    const io: CapturedIo = captureIo({ cwd: top });
    const result = { status: 'PAUSED', reason: 'AWAITING_APPROVAL', result: null, message: 'tool.fs.Write needs approval', failure: null, turns: 1, sid: 'S1', decisions: [], usage: { inputTokens: 0, outputTokens: 0, costUsd: 0, fuel: 0, toolCalls: 0, wallMs: 0 } } as const;
    printLoopResult(io, result, false, { db: 'postgres://u:hunter2pass@db/x' });
    expect(io.err).toContain("askloop approve S1 --db 'postgres://u:***@db/x' [--note TEXT]");
    expect(io.err).toContain('pass the same --db');
    expect(io.err).not.toContain('hunter2pass');
  });

  it('says what waits for approval, as the terminal view and --json do (a log or a pipe had only "waits for a person")', async () => {
    const { printLoopResult } = await import('../src/loop/print-loop-result.ts');
    const io: CapturedIo = captureIo({ cwd: top });
    const result = { status: 'PAUSED', reason: 'AWAITING_APPROVAL', result: null, message: 'the program calls tool.fs.Write,\nwhich needs approval', failure: null, turns: 0, sid: 'S1', decisions: [], usage: { inputTokens: 0, outputTokens: 0, costUsd: 0, fuel: 0, toolCalls: 0, wallMs: 0 } } as const;
    printLoopResult(io, result, false);
    expect(io.err.split('\n')[1]).toBe('  why:     the program calls tool.fs.Write, which needs approval');
  });
});
