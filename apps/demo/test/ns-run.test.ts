import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { tempFolders } from './temp-folder.ts';

const LIBRARY = 'func shout(needs s returns r) means\n  return tool.str.ToUpper(s) + "!"\nendfunc\n';
const FIRST = 'command\n  emit shout("hello")\n  whisper "notes", "first"\nendcommand\n';
const SECOND = 'command\n  emit tool.math.Add(2, 3)\n  emit [1, "a"]\nendcommand\n';

/** A fresh folder holding `files`, removed after the tests. */
const folderWith = tempFolders('ns-run');

describe('askloop ns run', () => {
  it('loads libraries and runs command files in order, printing each emit', async () => {
    const io = captureIo({ cwd: folderWith({ 'lib.ns': LIBRARY, 'a.ns': FIRST, 'b.ns': SECOND }) });
    expect(await main(['ns', 'run', 'a.ns', 'lib.ns', 'b.ns'], io)).toBe(0);
    expect(io.out).toBe('HELLO!\n5\n[1, "a"]\n');
  });

  it('loads a library longer than the 64 KiB a model program may be; ns check --agent keeps that cap', async () => {
    // 1,400 small functions, about 72 KB: refused before with SCRIPT_PROGRAM_TOO_LARGE and "split the work across turns".
    const library = Array.from({ length: 1400 }, (_, n) => `func f${n}(needs x returns r) means\n  return x + ${n}\nendfunc\n`).join('');
    expect(library.length).toBeGreaterThan(64 * 1024);
    const cwd = folderWith({ 'big.ns': library, 'cmd.ns': 'command\n  emit f1399(1)\nendcommand\n' });
    const io = captureIo({ cwd });
    expect(await main(['ns', 'run', 'big.ns', 'cmd.ns'], io), io.err).toBe(0);
    expect(io.out).toBe('1400\n');
    const checked = captureIo({ cwd });
    expect(await main(['ns', 'check', 'big.ns', 'cmd.ns'], checked), checked.err).toBe(0);
    const asModel = captureIo({ cwd });
    expect(await main(['ns', 'check', 'big.ns', '--agent'], asModel)).toBe(1);
    expect(`${asModel.out}${asModel.err}`).toContain('SCRIPT_PROGRAM_TOO_LARGE');
  }, 60_000);

  it('says that nothing ran when no file holds a command block (a library alone, an empty file), and stays silent in --json', async () => {
    const cwd = folderWith({ 'lib.ns': LIBRARY, 'empty.ns': '' });
    const io = captureIo({ cwd });
    expect(await main(['ns', 'run', 'lib.ns', 'empty.ns'], io)).toBe(0);
    expect(io.out).toBe('');
    expect(io.err).toBe("askloop ns run: no command block in lib.ns, empty.ns: nothing ran (a library's functions run when a command block calls them: give a command file too)\n");
    const json = captureIo({ cwd });
    expect(await main(['ns', 'run', 'lib.ns', '--json'], json)).toBe(0);
    expect(json.err).toBe('');
    expect(JSON.parse(json.out)).toMatchObject({ ok: true, emits: [], diagnostics: [] });
  });

  it("binds userdata with --userdata, to try a turn's program; without it a read of userdata fails saying it is not bound", async () => {
    const cwd = folderWith({ 'turn.ns': 'command\n  emit tool.str.ToUpper(userdata["subject"])\nendcommand\n' });
    const io = captureIo({ cwd });
    expect(await main(['ns', 'run', 'turn.ns', '--userdata', '{"subject": "count the words"}'], io)).toBe(0);
    expect(io.out).toBe('COUNT THE WORDS\n');
    const without = captureIo({ cwd });
    expect(await main(['ns', 'run', 'turn.ns', '--json'], without)).toBe(1);
    expect(JSON.parse(without.out).error).toMatchObject({ code: 'SCRIPT_VARIABLE_UNSET', message: expect.stringMatching(/^Variable 'userdata' is not bound in this run: .* Here: askloop ns run FILE --userdata '\{"subject": "the task"\}'\.$/) });
    const plain = captureIo({ cwd });
    expect(await main(['ns', 'run', 'turn.ns'], plain)).toBe(1);
    expect(plain.err).toContain(`Here: askloop ns run FILE --userdata '{"subject": "the task"}'.`);
    const bad = captureIo({ cwd });
    expect(await main(['ns', 'run', 'turn.ns', '--userdata', '{subject: 1}'], bad)).toBe(2);
    expect(bad.err).toContain('--userdata: not JSON');
  });

  it('prints the JSON report with --json', async () => {
    const io = captureIo({ cwd: folderWith({ 'lib.ns': LIBRARY, 'a.ns': FIRST }) });
    expect(await main(['ns', 'run', 'lib.ns', 'a.ns', '--json'], io)).toBe(0);
    const report = JSON.parse(io.out);
    expect(Object.keys(report)).toEqual(['ok', 'emits', 'whispers', 'diagnostics', 'usage']);
    expect(report).toMatchObject({ ok: true, emits: ['HELLO!'], whispers: { notes: 'first' }, diagnostics: [] });
    expect(report.usage.toolCalls).toBe(1);
    expect(report.usage.fuel).toBeGreaterThan(0);
  });

  it('keeps whisper targets named like Object.prototype members in the --json report', async () => {
    const script = 'command\n  whisper "toString", "x"\n  whisper "__proto__", "secret"\nendcommand\n';
    const io = captureIo({ cwd: folderWith({ 'a.ns': script, 'b.ns': script }) });
    expect(await main(['ns', 'run', 'a.ns', 'b.ns', '--json'], io)).toBe(0);
    expect(io.out).toContain('"whispers":{"toString":"x\\nx","__proto__":"secret\\nsecret"}');
  });

  it('reports a run-time error on stderr with its position and exits 1', async () => {
    const io = captureIo({ cwd: folderWith({ 'bad.ns': 'command\n  emit "before"\n  set x = [1][3]\nendcommand\n' }) });
    expect(await main(['ns', 'run', 'bad.ns'], io)).toBe(1);
    expect(io.out).toBe('before\n');
    expect(io.err).toMatch(/^bad\.ns:3:14 SCRIPT_INDEX_OUT_OF_RANGE /);
  });

  it('names the file and the line the run last checked in at for a memory limit (no column), not FILE:LINE:0', async () => {
    // Every iteration keeps a fresh copy of a 100,000-item list.
    const bomb = 'command\n  set big[99999] = 1\n  set l = []\n  set i = 0\n  while true\n    set big[0] = i\n    set l[len(l)] = big\n    set i = i + 1\n  endwhile\nendcommand\n';
    const io = captureIo({ cwd: folderWith({ 'bomb.ns': bomb }) });
    expect(await main(['ns', 'run', 'bomb.ns', '--memory-mb', '16', '--fuel', '1000000000'], io)).toBe(1);
    // A line of the loop: the evaluator's last checkpoint before the isolate ran out of memory.
    expect(io.err).toMatch(/^bomb\.ns:([5-8]) SCRIPT_MEMORY_LIMIT .*\(limit: memoryMb\); it was stopped at or after line \1\.\n$/);
  });

  it('runs nothing when a static check fails', async () => {
    const io = captureIo({ cwd: folderWith({ 'ok.ns': 'command\n  emit "should not run"\nendcommand\n', 'bad.ns': 'command\n  call tool.str.Nope()\nendcommand\n' }) });
    expect(await main(['ns', 'run', 'ok.ns', 'bad.ns', '--json'], io)).toBe(1);
    const report = JSON.parse(io.out);
    expect(report.ok).toBe(false);
    expect(report.emits).toEqual([]);
    expect(report.error).toMatchObject({ code: 'SCRIPT_TOOL_UNKNOWN', file: 'bad.ns', line: 2, column: 8 });
    // The report carries the diagnostics: with --json standard error stays empty, as after a run-time error.
    expect(io.err).toBe('');
    const text = captureIo({ cwd: io.cwd });
    expect(await main(['ns', 'run', 'ok.ns', 'bad.ns'], text)).toBe(1);
    expect(text.out).toBe('');
    expect(text.err).toMatch(/^bad\.ns:2:8 SCRIPT_TOOL_UNKNOWN /);
  });

  it('applies --allow and the fuel limit', async () => {
    const cwd = folderWith({ 'loop.ns': 'command\n  while true\n    set x = 1\n  endwhile\nendcommand\n', 'tools.ns': SECOND });
    const fuel = captureIo({ cwd });
    expect(await main(['ns', 'run', 'loop.ns', '--fuel', '500', '--json'], fuel)).toBe(1);
    expect(JSON.parse(fuel.out).error).toMatchObject({ code: 'SCRIPT_FUEL_EXHAUSTED', line: 3 });
    const denied = captureIo({ cwd });
    expect(await main(['ns', 'run', 'tools.ns', '--allow', 'tool.str.*'], denied)).toBe(1);
    expect(denied.err).toContain('SCRIPT_TOOL_DENIED');
  });

  it('exits 2 on a usage error', async () => {
    const io = captureIo();
    expect(await main(['ns', 'run', 'x.ns', '--fuel', 'lots'], io)).toBe(2);
    expect(io.err).toContain('--fuel');
    expect(await main(['ns', 'run'], captureIo())).toBe(2);
  });
});
