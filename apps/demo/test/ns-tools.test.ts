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
    expect(diagnostic.message).toContain('--grant');
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

  it('ns run stops a call outside the granted scope at run time', async () => {
    const io = captureIo({ cwd: await workspace() });
    expect(await main(['ns', 'run', 'read.ns', '--fs-root', 'root', '--allow', 'tool.fs.*', '--grant', 'fs:read:/other/**', '--json'], io)).toBe(1);
    const report = JSON.parse(io.out);
    expect(report.ok).toBe(false);
    expect(report.emits).toEqual([]);
    expect(report.error.line).toBe(2);
    expect(report.error.message).toContain('fs:read:/notes/today.txt');
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
