import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { tempFolders } from './temp-folder.ts';

const SCRIPT = 'command\n  emit "hi"\nendcommand\n';

/** A fresh folder holding `files`, removed after the tests. */
const folderWith = tempFolders('consistency');

describe('numeric and tool options are validated with the reason', () => {
  it.each([
    [['--timeout-ms', '2147483648'], "--timeout-ms must be a whole number from 1 to 2147483000 ms (Node's timer limit), not '2147483648'"],
    [['--timeout-ms', '2147483647'], "--timeout-ms must be a whole number from 1 to 2147483000 ms (Node's timer limit), not '2147483647'"],
    [['--timeout-ms', '0'], "--timeout-ms must be a whole number from 1 to 2147483000 ms (Node's timer limit), not '0'"],
    [['--memory-mb', '4'], "--memory-mb must be a whole number from 8 to 16384 MiB (the sandbox's minimum isolate heap is 8 MiB), not '4'"],
    [['--fuel=-5'], "--fuel must be a whole number from 1 to 9007199254740991 steps, not '-5'"],
    // Written apart, a negative number is the option's value too (Node's parser read it as an option, in three lines).
    [['--fuel', '-5'], "--fuel must be a whole number from 1 to 9007199254740991 steps, not '-5'"],
    [['--fuel', '1.5'], "--fuel must be a whole number from 1 to 9007199254740991 steps, not '1.5'"],
    [['--fuel', 'NaN'], "--fuel must be a whole number from 1 to 9007199254740991 steps, not 'NaN'"],
    [['--fuel', '1e3'], "--fuel must be a whole number from 1 to 9007199254740991 steps, not '1e3'"],
    [['--fuel', '99999999999999999999'], "--fuel must be a whole number from 1 to 9007199254740991 steps, not '99999999999999999999'"],
    [['--grant', 'disk:read:/x'], "--grant disk:read:/x: unknown resource 'disk'; the tools know fs, mcp, memory, net (or * for all)"],
    // Walkthrough: a slip of one in the resource was told only the list.
    [['--grant', 'memry:read:/x'], "--grant memry:read:/x: unknown resource 'memry' (did you mean 'memory'?); the tools know fs, mcp, memory, net (or * for all)"],
    // Taken before, it granted nothing, and the refusal that followed ("needs fs:read:/a.txt") hid the typo.
    [['--grant', 'fs:raed:/**'], "--grant fs:raed:/**: no tool needs 'fs:raed'; did you mean 'read'? (the verbs of fs: delete, read, write, or *)"],
    [['--fs-root', 'no-such-dir'], '--fs-root no-such-dir: no such directory'],
    [['--fs-root', 'a.ns'], '--fs-root a.ns: not a directory'],
    // Resolved, an empty value was the current folder: the file tools confined there, silently.
    [['--fs-root', ''], '--fs-root needs a directory, got an empty value (an unset variable?)'],
  ])('ns run %j is refused before anything runs', async (options, message) => {
    const io = captureIo({ cwd: folderWith({ 'a.ns': SCRIPT }) });
    expect(await main(['ns', 'run', 'a.ns', ...options], io)).toBe(2);
    expect(io.err).toBe(`askloop: ${message} (CLI_OPTION_INVALID)\nRun 'askloop ns run --help' for usage.\n`);
    expect(io.out).toBe('');
  });

  it('says in one line how to pass a value that starts with a dash', async () => {
    const io = captureIo({ cwd: folderWith({}) });
    expect(await main(['sessions', '--search', '-draft'], io)).toBe(2);
    expect(io.err).toBe("askloop: --search: its value starts with '-', which reads as another option; write it as --search=VALUE (CLI_USAGE)\nRun 'askloop sessions --help' for usage.\n");
  });

  it('accepts the largest timeout (a regression: 2^31−1 used to time out at once) and the smallest sandbox heap', async () => {
    const io = captureIo({ cwd: folderWith({ 'a.ns': SCRIPT }) });
    expect(await main(['ns', 'run', 'a.ns', '--timeout-ms', '2147483000', '--memory-mb', '8', '--grant', '*:*'], io)).toBe(0);
    expect(io.out).toBe('hi\n');
  });

  it('gives the option error as the JSON envelope with --json', async () => {
    const io = captureIo({ cwd: folderWith({ 'a.ns': SCRIPT }) });
    expect(await main(['ns', 'check', 'a.ns', '--grant', 'disk:read', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out)).toEqual({ ok: false, error: { code: 'CLI_OPTION_INVALID', message: expect.stringContaining("unknown resource 'disk'") } });
  });
});

describe('every command fails the same way', () => {
  it.each([
    [['envelope', 'parse']],
    [['envelope', 'compose']],
    [['envelope', 'control']],
    [['envelope', 'digest', '--output', '-']],
    [['ns', 'check', '-']],
    [['ns', 'run', '-']],
  ])('askloop %j does not wait on a terminal: a hint and exit 2', async (args) => {
    const io = captureIo({ stdinIsTerminal: true });
    expect(await main(args, io)).toBe(2);
    const hint = `Run 'askloop ${args.slice(0, 2).join(' ')} --help' for usage.\n`;
    const message = 'no FILE given and standard input is a terminal; pass a FILE, or pipe the input in';
    if (io.out === '') expect(io.err).toBe(`askloop: <stdin>: ${message} (CLI_STDIN_IS_TERMINAL)\n${hint}`);
    else {
      expect(JSON.parse(io.out)).toEqual({ ok: false, error: { code: 'CLI_STDIN_IS_TERMINAL', message, file: '<stdin>' } });
      expect(io.err).toBe(hint);
    }
  });

  it.each([
    [['envelope', 'parse', 'missing.txt'], true],
    [['envelope', 'compose', 'missing.txt'], true],
    [['envelope', 'control', 'missing.txt'], true],
    [['envelope', 'digest', '--output', 'missing.txt'], false],
    [['ns', 'check', 'missing.txt'], false],
    [['ns', 'run', 'missing.txt', '--json'], true],
  ])('askloop %j: a missing file is one line (or the JSON envelope) and exit 2', async (args, json) => {
    const io = captureIo({ cwd: folderWith({}) });
    expect(await main(args, io)).toBe(2);
    if (json) {
      expect(JSON.parse(io.out)).toEqual({ ok: false, error: { code: 'CLI_FILE_UNREADABLE', message: 'cannot read: no such file', file: 'missing.txt' } });
      expect(io.err).toBe('');
    } else {
      expect(io.err).toBe('askloop: missing.txt: cannot read: no such file (CLI_FILE_UNREADABLE)\n');
    }
  });

  it('askloop help COMMAND prints that command\'s help, as COMMAND --help does', async () => {
    for (const args of [['run'], ['ns', 'check'], ['envelope']]) {
      const viaHelp = captureIo();
      const viaOption = captureIo();
      expect(await main(['help', ...args], viaHelp)).toBe(0);
      expect(await main([...args, '--help'], viaOption)).toBe(0);
      expect(viaHelp.out).toBe(viaOption.out);
      expect(viaHelp.out).toContain(`askloop ${args.join(' ')}`);
    }
  });

  it('askloop mcp serve --help names --http-tools for the HTTP tool (its --http takes the port)', async () => {
    const io = captureIo();
    expect(await main(['mcp', 'serve', '--help'], io)).toBe(0);
    expect(io.out).toMatch(/^Usage: askloop mcp serve .*\[--http PORT\] \[--http-tools\]/);
    expect(io.out).toContain('  --http-tools      add tool.http.Fetch');
    expect(io.out).not.toContain('  --http            add tool.http.Fetch');
  });

  it('an error line never carries raw control characters (a file name, a quoted model or server)', async () => {
    const io = captureIo();
    expect(await main(['ns', 'check', 'no\u001b]0;pwned\u0007such.ns'], io)).toBe(2);
    expect(io.err).toBe('askloop: no\\x1b]0;pwned\\x07such.ns: cannot read: no such file (CLI_FILE_UNREADABLE)\n');
  });

  it('refuses an empty task (an unset variable, most often) before anything is stored', async () => {
    const io = captureIo();
    expect(await main(['run', '  ', '--script', 'none.json'], io)).toBe(2);
    expect(io.err).toBe('askloop: the task is empty: say what the agent should do, askloop run "<task>" (CLI_USAGE)\nRun \'askloop run --help\' for usage.\n');
  });

  it('a usage error names the one wrong thing and the help to read', async () => {
    const cases: [string[], string][] = [
      [[], "askloop: no command given (CLI_USAGE)\nRun 'askloop --help' for usage.\n"],
      [['nope'], "askloop: unknown command 'nope' (CLI_USAGE)\nRun 'askloop --help' for usage.\n"],
      [['ns'], "askloop: 'ns' needs a command: check, run, tools (CLI_USAGE)\nRun 'askloop ns --help' for usage.\n"],
      [['envelope', 'nope'], "askloop: unknown command 'envelope nope'; 'envelope' has parse, compose, digest, control (CLI_USAGE)\nRun 'askloop envelope --help' for usage.\n"],
      [['rnu', 'x'], "askloop: unknown command 'rnu'; did you mean 'run'? (CLI_USAGE)\nRun 'askloop --help' for usage.\n"],
      [['run', 'x', '--scirpt', 'r.json'], "askloop: unknown option '--scirpt'; did you mean '--script'? (CLI_USAGE)\nRun 'askloop run --help' for usage.\n"],
      [['sessions', '--stauts', 'done'], "askloop: unknown option '--stauts'; did you mean '--status'? (CLI_USAGE)\nRun 'askloop sessions --help' for usage.\n"],
      // Walkthrough: replay's usage names --script to say it needs none, and the option was suggested back as itself.
      [['replay', 'abcd', '--script', 'r.json'], "askloop: unknown option '--script': this command does not take it (CLI_USAGE)\nRun 'askloop replay --help' for usage.\n"],
      [['ns', 'run', 'a.ns', '--bogus'], "askloop: unknown option '--bogus' (an argument that starts with '-' goes after '--') (CLI_USAGE)\nRun 'askloop ns run --help' for usage.\n"],
      // Walkthrough: Node's own words named its notation ("Option '--db <value>' argument missing"), not the command's.
      [['sessions', '--db'], "askloop: --db needs a value: --db FILE (CLI_USAGE)\nRun 'askloop sessions --help' for usage.\n"],
      [['show', 'abcd', '--turn'], "askloop: --turn needs a value: --turn N|N..M (CLI_USAGE)\nRun 'askloop show --help' for usage.\n"],
      [['run', 'x', '--max-turns'], "askloop: --max-turns needs a value: --max-turns N (CLI_USAGE)\nRun 'askloop run --help' for usage.\n"],
      [['sessions', '--json=yes'], "askloop: --json takes no value: write --json alone (CLI_USAGE)\nRun 'askloop sessions --help' for usage.\n"],
      [['demo', 'extra'], "askloop: unexpected argument 'extra': askloop demo takes options only (an option's value goes right after it) (CLI_USAGE)\nRun 'askloop demo --help' for usage.\n"],
    ];
    for (const [args, expected] of cases) {
      const io = captureIo();
      expect(await main(args, io), args.join(' ')).toBe(2);
      expect(io.err, args.join(' ')).toBe(expected);
    }
  });
});

describe('the --json envelope', () => {
  it('ns run --json returns every static diagnostic, like ns check --json', async () => {
    const cwd = folderWith({ 'a.ns': 'command\n  x = 1\nendcommand\n', 'b.ns': 'command\n  call tool.str.ToUppr("a")\n  break\nendcommand\n' });
    const run = captureIo({ cwd });
    expect(await main(['ns', 'run', 'a.ns', 'b.ns', '--json'], run)).toBe(1);
    const check = captureIo({ cwd });
    expect(await main(['ns', 'check', 'a.ns', 'b.ns', '--json'], check)).toBe(1);
    const runReport = JSON.parse(run.out);
    const checkReport = JSON.parse(check.out);
    expect(runReport.diagnostics).toHaveLength(3);
    expect(runReport.diagnostics).toEqual(checkReport.diagnostics);
    expect(runReport.error).toEqual(checkReport.error);
    expect(runReport).toMatchObject({ ok: false, emits: [], whispers: {}, usage: { fuel: 0, toolCalls: 0, wallMs: 0 } });
  });

  it('a run-time error has the same error fields, with the file', async () => {
    const io = captureIo({ cwd: folderWith({ 'a.ns': 'command\n  emit "before"\n  fail "boom"\nendcommand\n' }) });
    expect(await main(['ns', 'run', 'a.ns', '--json'], io)).toBe(1);
    const report = JSON.parse(io.out);
    expect(Object.keys(report)).toEqual(['ok', 'error', 'emits', 'whispers', 'diagnostics', 'usage']);
    expect(report.error).toMatchObject({ code: expect.stringMatching(/^SCRIPT_/), file: 'a.ns', line: 3, column: 3 });
    expect(report.emits).toEqual(['before']);
  });

  it('envelope control wraps its result in {"ok":true,…}', async () => {
    const io = captureIo({ stdin: 'work\n<<<LOOP:DONE>>> 42\n' });
    expect(await main(['envelope', 'control'], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ ok: true, done: true });
  });
});
