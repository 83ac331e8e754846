/**
 * `askloop ns check` and `askloop ns run` use the real registry and policy of
 * @askloop/tools: --allow/--deny globs, --grant capabilities, gated packs.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDefaultPool } from '@askloop/interpreter';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

const READ_NOTE = 'command\n  emit tool.fs.Read("/notes/today.txt")\nendcommand\n';

async function workspace(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'askloop-tools-'));
  await mkdir(join(directory, 'root', 'notes'), { recursive: true });
  await writeFile(join(directory, 'root', 'notes', 'today.txt'), 'buy milk');
  await writeFile(join(directory, 'read.ns'), READ_NOTE);
  return directory;
}

afterAll(async () => {
  await closeDefaultPool();
});

describe('tool policy on the command line', () => {
  it('ns check refuses a gated tool without its capability, naming the grant to add', async () => {
    const io = captureIo({ cwd: await workspace() });
    expect(await main(['ns', 'check', 'read.ns', '--fs-root', 'root', '--allow', 'tool.fs.*', '--json'], io)).toBe(1);
    const [diagnostic] = JSON.parse(io.out).diagnostics;
    expect(diagnostic).toMatchObject({ code: 'SCRIPT_TOOL_DENIED', line: 2, file: 'read.ns' });
    expect(diagnostic.message).toContain('POLICY_CAPABILITY_MISSING');
    expect(diagnostic.message).toContain('add the grant fs:read:/notes/today.txt to the policy');
  });

  it('ns check passes once the capability is granted', async () => {
    const io = captureIo({ cwd: await workspace() });
    expect(await main(['ns', 'check', 'read.ns', '--fs-root', 'root', '--allow', 'tool.fs.*', '--grant', 'fs:read:/notes/**'], io)).toBe(0);
  });

  it('ns run reads the file with the grant', async () => {
    const io = captureIo({ cwd: await workspace() });
    expect(await main(['ns', 'run', 'read.ns', '--fs-root', 'root', '--allow', 'tool.fs.*', '--grant', 'fs:read:/notes/**', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ ok: true, emits: ['buy milk'], usage: { toolCalls: 1 } });
  });

  it('ns run refuses a literal path outside the granted scope before anything runs (check and run agree)', async () => {
    const directory = await workspace();
    await writeFile(join(directory, 'private.ns'), 'command\n  emit "before"\n  emit tool.fs.Read("/private/p.txt")\nendcommand\n');
    const io = captureIo({ cwd: directory });
    expect(await main(['ns', 'run', 'private.ns', '--fs-root', 'root', '--allow', 'tool.fs.*', '--grant', 'fs:read:/notes/**', '--json'], io)).toBe(1);
    const report = JSON.parse(io.out);
    expect(report).toMatchObject({ ok: false, emits: [], error: { code: 'SCRIPT_TOOL_DENIED', line: 3 } });
    expect(report.error.message).toContain('fs:read:/private/p.txt');
    const check = captureIo({ cwd: directory });
    expect(await main(['ns', 'check', 'private.ns', '--fs-root', 'root', '--allow', 'tool.fs.*', '--grant', 'fs:read:/notes/**'], check)).toBe(1);
    expect(check.out).toContain('private.ns:3:8 SCRIPT_TOOL_DENIED');
  });

  it('ns run still stops a computed path outside the granted scope at run time', async () => {
    const directory = await workspace();
    await writeFile(join(directory, 'computed.ns'), 'command\n  emit "before"\n  set p = "/private/" + "p.txt"\n  emit tool.fs.Read(p)\nendcommand\n');
    const io = captureIo({ cwd: directory });
    expect(await main(['ns', 'run', 'computed.ns', '--fs-root', 'root', '--allow', 'tool.fs.*', '--grant', 'fs:read:/notes/**', '--json'], io)).toBe(1);
    const report = JSON.parse(io.out);
    expect(report).toMatchObject({ ok: false, emits: ['before'], error: { code: 'SCRIPT_TOOL_DENIED', line: 4 } });
  });

  it('ns check refuses a literal URL to a host without a grant', async () => {
    const source = 'command\n  emit "before"\n  emit tool.http.Fetch("https://other.test/x")\nendcommand\n';
    const denied = captureIo({ stdin: source });
    expect(await main(['ns', 'run', '-', '--http', '--allow', 'tool.http.*', '--grant', 'net:read:example.com', '--json'], denied)).toBe(1);
    const report = JSON.parse(denied.out);
    expect(report).toMatchObject({ ok: false, emits: [], error: { code: 'SCRIPT_TOOL_DENIED', line: 3 } });
    expect(report.error.message).toContain('HTTP_HOST_DENIED');
    const granted = captureIo({ stdin: source });
    expect(await main(['ns', 'check', '-', '--http', '--allow', 'tool.http.*', '--grant', 'net:read:other.test'], granted)).toBe(0);
  });

  it('ns run refuses a function defined in two library files before anything runs', async () => {
    const directory = await workspace();
    await writeFile(join(directory, 'one.ns'), 'func helper() means\n  emit "one"\nendfunc\n');
    await writeFile(join(directory, 'two.ns'), 'func helper() means\n  emit "two"\nendfunc\n');
    await writeFile(join(directory, 'main.ns'), 'command\n  emit "before"\n  call helper()\nendcommand\n');
    const io = captureIo({ cwd: directory });
    expect(await main(['ns', 'run', 'one.ns', 'two.ns', 'main.ns'], io)).toBe(1);
    expect(io.out).toBe('');
    expect(io.err).toMatch(/^two\.ns:1:1 SCRIPT_DUPLICATE_FUNCTION Function 'helper' is already defined in one\.ns at line 1/);
  });

  it.each([
    ['tool.str.Length(5)', "argument 'input_string' expects a string"],
    ['tool.math.Add("a", 1)', "argument 'num1' expects"],
    ['tool.str.Substring("abc", "x", 1)', "argument 'start_index' expects"],
  ])('ns check and ns run refuse the literal argument of %s before anything runs', async (call, reason) => {
    // Regression: the check passed these and the run failed with SCRIPT_TOOL_ARGUMENTS after "before" was emitted.
    const source = `command\n  emit "before"\n  emit ${call}\nendcommand\n`;
    const checked = captureIo({ stdin: source });
    expect(await main(['ns', 'check', '-', '--json'], checked)).toBe(1);
    expect(JSON.parse(checked.out)).toMatchObject({ ok: false, error: { code: 'SCRIPT_TOOL_ARGUMENT_TYPE', kind: 'check', line: 3, message: expect.stringContaining(reason) } });
    const ran = captureIo({ stdin: source });
    expect(await main(['ns', 'run', '-', '--json'], ran)).toBe(1);
    expect(JSON.parse(ran.out)).toMatchObject({ ok: false, emits: [], error: { code: 'SCRIPT_TOOL_ARGUMENT_TYPE', line: 3 } });
  });

  it('ns run names the library file of a run-time error inside a library function', async () => {
    // Regression: the error's line and column were the library's, the file was the command's.
    const directory = await workspace();
    await writeFile(join(directory, 'lib.ns'), 'func boom() means\n  emit "in lib"\n  fail "broken"\nendfunc\n');
    await writeFile(join(directory, 'main.ns'), 'command\n  emit "before"\n  call boom()\nendcommand\n');
    const io = captureIo({ cwd: directory });
    expect(await main(['ns', 'run', 'lib.ns', 'main.ns', '--json'], io)).toBe(1);
    expect(JSON.parse(io.out)).toMatchObject({ ok: false, emits: ['before', 'in lib'], error: { code: 'SCRIPT_FAIL', file: 'lib.ns', line: 3, column: 3 } });
  });

  it('memory tools work when allowed and granted (an in-memory store per command), so the check and the run agree', async () => {
    // Regression: ns check accepted these calls and every one failed at run time with TOOL_STORE_MISSING.
    const directory = await workspace();
    await writeFile(join(directory, 'a.ns'), 'command\n  emit "before"\n  set ok, version = tool.memory.CAS("public/x", 0, "hello")\n  emit ok\nendcommand\n');
    await writeFile(join(directory, 'b.ns'), 'command\n  set value, version = tool.memory.Get("public/x")\n  emit value\n  emit version\nendcommand\n');
    const options = ['--allow', 'tool.memory.*', '--grant', 'memory:read,write:public/*', '--json'];
    const checked = captureIo({ cwd: directory });
    expect(await main(['ns', 'check', 'a.ns', 'b.ns', ...options], checked)).toBe(0);
    const ran = captureIo({ cwd: directory });
    expect(await main(['ns', 'run', 'a.ns', 'b.ns', ...options], ran)).toBe(0);
    expect(JSON.parse(ran.out)).toMatchObject({ ok: true, emits: ['before', 'true', 'hello', '1'] });
  });

  it.each([
    ['call nosuch()', 'SCRIPT_FUNCTION_UNKNOWN', "No function named 'nosuch' is defined"],
    ['emit helper(1, 2)', 'SCRIPT_FUNCTION_ARGUMENT_COUNT', 'helper() takes 1 argument, got 2.'],
  ])('ns check and ns run refuse `%s` before anything runs', async (statement, code, message) => {
    // Regression: the check passed these and the run failed (SCRIPT_FUNCTION_NOT_FOUND / SCRIPT_ARGUMENT_COUNT) after "before" was emitted.
    const directory = await workspace();
    await writeFile(join(directory, 'lib.ns'), 'func helper(needs a) means\n  emit a\nendfunc\n');
    await writeFile(join(directory, 'main.ns'), `command\n  emit "before"\n  ${statement}\nendcommand\n`);
    const checked = captureIo({ cwd: directory });
    expect(await main(['ns', 'check', 'lib.ns', 'main.ns', '--json'], checked)).toBe(1);
    expect(JSON.parse(checked.out)).toMatchObject({ ok: false, error: { code, kind: 'check', file: 'main.ns', line: 3, message: expect.stringContaining(message) } });
    const ran = captureIo({ cwd: directory });
    expect(await main(['ns', 'run', 'lib.ns', 'main.ns', '--json'], ran)).toBe(1);
    expect(JSON.parse(ran.out)).toMatchObject({ ok: false, emits: [], error: { code, file: 'main.ns', line: 3 } });
  });

  it('a library alone may call functions of another library (checked when a command loads them)', async () => {
    const directory = await workspace();
    await writeFile(join(directory, 'one.ns'), 'func outer() means\n  call inner()\nendfunc\n');
    await writeFile(join(directory, 'two.ns'), 'func inner() means\n  emit "inner"\nendfunc\n');
    await writeFile(join(directory, 'main.ns'), 'command\n  call outer()\nendcommand\n');
    expect(await main(['ns', 'check', 'one.ns'], captureIo({ cwd: directory }))).toBe(0);
    const ran = captureIo({ cwd: directory });
    expect(await main(['ns', 'run', 'one.ns', 'two.ns', 'main.ns', '--json'], ran)).toBe(0);
    expect(JSON.parse(ran.out)).toMatchObject({ ok: true, emits: ['inner'] });
  });

  it('ns check refuses a function defined in two library files, as ns run does (also without a command file)', async () => {
    // Regression: ns check checked each file alone and exited 0 on these files, which ns run refuses.
    const directory = await workspace();
    await writeFile(join(directory, 'one.ns'), 'func helper() means\n  emit "one"\nendfunc\n');
    await writeFile(join(directory, 'two.ns'), 'func other() means\n  emit "x"\nendfunc\nfunc helper() means\n  emit "two"\nendfunc\n');
    await writeFile(join(directory, 'main.ns'), 'command\n  emit "before"\n  call helper()\nendcommand\n');
    const expected = { code: 'SCRIPT_DUPLICATE_FUNCTION', file: 'two.ns', line: 4, column: 1, message: "Function 'helper' is already defined in one.ns at line 1; rename one of them." };
    for (const files of [['one.ns', 'two.ns', 'main.ns'], ['one.ns', 'two.ns']]) {
      const checked = captureIo({ cwd: directory });
      expect(await main(['ns', 'check', ...files, '--json'], checked)).toBe(1);
      expect(JSON.parse(checked.out)).toMatchObject({ ok: false, error: expected });
      const ran = captureIo({ cwd: directory });
      expect(await main(['ns', 'run', ...files, '--json'], ran)).toBe(1);
      expect(JSON.parse(ran.out)).toMatchObject({ ok: false, emits: [], error: expected });
    }
  });

  it('ns run denies tools outside the default pure groups before anything runs', async () => {
    const io = captureIo({ stdin: 'command\n  emit "before"\n  emit tool.system.Caps()\nendcommand\n' });
    expect(await main(['ns', 'run', '-'], io)).toBe(1);
    expect(io.out).toBe('');
    expect(io.err).toContain('SCRIPT_TOOL_DENIED');
  });

  it('a malformed grant is a usage error', async () => {
    const io = captureIo({ stdin: READ_NOTE });
    expect(await main(['ns', 'check', '-', '--grant', 'fs'], io)).toBe(2);
    expect(io.err).toContain('--grant fs');
  });
});
