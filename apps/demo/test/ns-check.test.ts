import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { tempFolders } from './temp-folder.ts';

const CLEAN = 'command\n  set x = tool.str.ToUpper("a")\n  emit x\nendcommand\n';
const LIBRARY = 'func shout(needs s returns r) means\n  return tool.str.ToUpper(s)\nendfunc\n';

/** A fresh folder holding `files`, removed after the tests. */
const folderWith = tempFolders('ns');

describe('askloop ns check', () => {
  it('exits 0 on clean library and command scripts', async () => {
    const io = captureIo({ cwd: folderWith({ 'turn.ns': CLEAN, 'lib.ns': LIBRARY }) });
    expect(await main(['ns', 'check', 'turn.ns', 'lib.ns'], io)).toBe(0);
    expect(io.out).toBe('');
    expect(io.err).toContain('no problems');
  });

  it('words an unknown function as the loop does under --agent: no library advice, which a model cannot follow', async () => {
    const turn = 'command\n  set total = sum([1, 2])\n  emit total\nendcommand\n';
    const agent = captureIo({ cwd: folderWith({ 'turn.ns': turn }) });
    expect(await main(['ns', 'check', '--agent', 'turn.ns'], agent)).toBe(1);
    expect(agent.out).toContain('SCRIPT_FUNCTION_UNKNOWN');
    expect(agent.out).not.toContain('library');
    const host = captureIo({ cwd: folderWith({ 'turn.ns': turn }) });
    expect(await main(['ns', 'check', 'turn.ns'], host)).toBe(1);
    expect(host.out).toContain('library');
  });

  it('says how many of the files the problems are in (it read "2 problems in 3 files" for problems in one)', async () => {
    const broken = 'command\n  emit tool.nope.One()\n  emit tool.nope.Two()\nendcommand\n';
    const io = captureIo({ cwd: folderWith({ 'a.ns': CLEAN, 'b.ns': broken, 'c.ns': CLEAN }) });
    expect(await main(['ns', 'check', 'a.ns', 'b.ns', 'c.ns'], io)).toBe(1);
    expect(io.err).toBe('2 problems in 1 of 3 files\n');
  });

  it('names the option that adds a tool the program calls: --fs-root for tool.fs.*, --http for tool.http.Fetch (ns check and ns run)', async () => {
    const program = 'command\n  emit tool.FS.read("/a.txt")\n  emit tool.http.Fetch("https://example.com")\n  emit tool.nope.X()\nendcommand\n';
    const cwd = folderWith({ 'turn.ns': program });
    const check = captureIo({ cwd });
    expect(await main(['ns', 'check', 'turn.ns'], check)).toBe(1);
    const lines = check.out.trim().split('\n');
    expect(lines[0]).toBe("turn.ns:2:8 SCRIPT_TOOL_UNKNOWN Unknown tool 'tool.FS.read'. Only tools the host lists can be called. Here: --fs-root DIR adds the tool.fs.* tools, confined to DIR (they also need --allow 'tool.fs.*' and an fs grant, e.g. --grant 'fs:read:/**').");
    expect(lines[1]).toContain("Here: --http adds tool.http.Fetch (it also needs --allow 'tool.http.Fetch' and a net grant");
    // A tool no option adds keeps the check's own words.
    expect(lines[2]).toBe("turn.ns:4:8 SCRIPT_TOOL_UNKNOWN Unknown tool 'tool.nope.X'. Only tools the host lists can be called.");
    const run = captureIo({ cwd });
    expect(await main(['ns', 'run', 'turn.ns', '--json'], run)).toBe(1);
    expect(JSON.parse(run.out).error.message).toContain('Here: --fs-root DIR adds the tool.fs.* tools');
    // With the options given, the tools are there: the policy speaks instead.
    const given = captureIo({ cwd });
    expect(await main(['ns', 'check', 'turn.ns', '--fs-root', cwd, '--http'], given)).toBe(1);
    expect(given.out).not.toContain('Here: --');
  });

  it('prints a warning (return inside on error) and still exits 0', async () => {
    const library = 'func f(returns r) means\n  on error do\n    return "x"\n  endon\n  return "fine"\nendfunc\n';
    const io = captureIo({ cwd: folderWith({ 'lib.ns': library }) });
    expect(await main(['ns', 'check', 'lib.ns'], io)).toBe(0);
    expect(io.out).toMatch(/^lib\.ns:3:5 warning SCRIPT_RETURN_IN_HANDLER /);
    expect(io.err).toContain('no problems, 1 warning');
  });

  it('prints every diagnostic as JSON with file, line and column, and exits 1', async () => {
    const io = captureIo({ cwd: folderWith({ 'a.ns': 'command\n  x = 1\nendcommand\n', 'b.ns': 'command\n  call tool.str.ToUppr("a")\n  break\nendcommand\n' }) });
    expect(await main(['ns', 'check', 'a.ns', 'b.ns', '--json'], io)).toBe(1);
    const first = { code: 'SCRIPT_SYNTAX', severity: 'error', kind: 'syntax', message: "An assignment needs 'set': write 'set x = 1'.", file: 'a.ns', line: 2, column: 3 };
    expect(JSON.parse(io.out)).toEqual({
      ok: false,
      error: first,
      diagnostics: [
        first,
        { code: 'SCRIPT_TOOL_UNKNOWN', severity: 'error', kind: 'permission', message: expect.stringContaining("Did you mean 'tool.str.ToUpper'?"), line: 2, column: 8, file: 'b.ns' },
        { code: 'SCRIPT_BREAK_OUTSIDE_LOOP', severity: 'error', kind: 'check', message: expect.any(String), line: 3, column: 3, file: 'b.ns' },
      ],
    });
  });

  it('applies --allow and --deny globs to canonical tool names', async () => {
    const source = 'command\n  call tool.str.ToUpper("a")\n  call tool.math.Add(1, 2)\nendcommand\n';
    const allowStr = captureIo({ stdin: source });
    expect(await main(['ns', 'check', '-', '--allow', 'tool.str.*', '--json'], allowStr)).toBe(1);
    expect(JSON.parse(allowStr.out).diagnostics.map((d: { code: string; line: number }) => [d.code, d.line])).toEqual([['SCRIPT_TOOL_DENIED', 3]]);

    const denyMath = captureIo({ stdin: source });
    expect(await main(['ns', 'check', '-', '--deny', 'TOOL.MATH.**'], denyMath)).toBe(1);
    expect(denyMath.out).toMatch(/^<stdin>:3:8 SCRIPT_TOOL_DENIED /);

    const allowAll = captureIo({ stdin: source });
    expect(await main(['ns', 'check', '-', '--allow', '*'], allowAll)).toBe(0);
  });

  it('checks agent turns with --agent', async () => {
    const io = captureIo({ stdin: 'command\n  emit 1\nendcommand\ncommand\n  promptuser "q" into a\nendcommand\n' });
    expect(await main(['ns', 'check', '-', '--agent', '--json'], io)).toBe(1);
    expect(JSON.parse(io.out).diagnostics.map((d: { code: string }) => d.code)).toEqual(['SCRIPT_AGENT_COMMAND_COUNT', 'SCRIPT_PROMPTUSER_NOT_ALLOWED']);
  });

  it('exits 2 on usage errors', async () => {
    const none = captureIo();
    expect(await main(['ns', 'check'], none)).toBe(2);
    expect(none.err).toBe("askloop: expected at least one FILE (CLI_USAGE)\nRun 'askloop ns check --help' for usage.\n");
    const badFlag = captureIo();
    expect(await main(['ns', 'check', 'x.ns', '--nope'], badFlag)).toBe(2);
    const missing = captureIo({ cwd: tmpdir() });
    expect(await main(['ns', 'check', 'does-not-exist.ns'], missing)).toBe(2);
    expect(missing.err).toBe('askloop: does-not-exist.ns: cannot read: no such file (CLI_FILE_UNREADABLE)\n');
  });

  it('lists the command in --help', async () => {
    const io = captureIo();
    expect(await main(['--help'], io)).toBe(0);
    expect(io.out).toContain('ns check');
  });
});
