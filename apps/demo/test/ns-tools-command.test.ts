/**
 * `askloop ns tools`: the tools a program may call under the tool options,
 * each with whether the policy those options build allows it — the same
 * policy `ns run` and `ns check` use.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

type Row = { name: string; pack: string; effect: string; requiresApproval: boolean; allowed: boolean };

async function listed(args: string[]): Promise<Row[]> {
  const io = captureIo();
  expect(await main(['ns', 'tools', ...args, '--json'], io), io.err).toBe(0);
  return JSON.parse(io.out) as Row[];
}

describe('askloop ns tools', () => {
  it('lists the built-in tools by the names programs write, the pure groups allowed by default', async () => {
    const rows = await listed([]);
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect(byName.get('tool.str.ToUpper')).toEqual({ name: 'tool.str.ToUpper', pack: 'str', effect: 'read', requiresApproval: false, allowed: true });
    expect(byName.get('tool.capsule.List')?.allowed).toBe(false);
    // Without --fs-root there are no file tools to list.
    expect(rows.some((row) => row.name.startsWith('tool.fs.'))).toBe(false);
  });

  it('follows the options: --allow replaces the default groups, --fs-root adds the file tools', async () => {
    const rows = await listed(['--allow', 'tool.capsule.*', '--fs-root', '.']);
    const allowed = rows.filter((row) => row.allowed).map((row) => row.name);
    expect(allowed).toContain('tool.capsule.List');
    expect(allowed).not.toContain('tool.str.ToUpper');
    expect(rows.some((row) => row.name === 'tool.fs.Read')).toBe(true);
  });

  it('prints one line per tool with its signature and why the policy refuses it', async () => {
    const io = captureIo();
    expect(await main(['ns', 'tools'], io)).toBe(0);
    expect(io.out).toMatch(/^tool\.str\.ToUpper\(\w+: string\) -> string - .+ {2}\[read\]$/m);
    expect(io.out).toMatch(/^tool\.capsule\.List\(\) -> list - .+\[read; denied: tool\.capsule\.List is not in the policy's allow list/m);
  });
});
