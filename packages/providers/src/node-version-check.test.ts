import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The machine's own Node 20, outside the toolchain that runs the tests. */
const OLD_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => existsSync(path) && execFileSync(path, ['--version'], { encoding: 'utf8' }).startsWith('v20.'));

/** Runs the check file (plain JavaScript syntax, so any Node can) as an ES module. */
async function runCheck(node: string, pretendVersion?: string): Promise<{ status: number | null; stderr: string }> {
  const directory = await mkdtemp(join(tmpdir(), 'askloop-node-check-'));
  const script = join(directory, 'check.mjs');
  await copyFile(fileURLToPath(new URL('./node-version-check.ts', import.meta.url)), script);
  const args = pretendVersion === undefined
    ? [script]
    : ['-e', `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(pretendVersion)} }); import(${JSON.stringify(script)}).catch((error) => { console.error(String(error)); process.exit(1); });`];
  const result = spawnSync(node, args, { encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

describe('node-version-check', () => {
  it('does nothing on the Node the package needs', async () => {
    expect(await runCheck(process.execPath)).toEqual({ status: 0, stderr: '' });
  });

  it.runIf(OLD_NODE !== undefined)('throws one clear error naming the required version on Node 20', async () => {
    const result = await runCheck(OLD_NODE!);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Error: @askloop\/providers needs Node 24\.21\.0 or a later Node 24 \(not 25 or newer\); this is Node 20\.\d+\.\d+/);
  });

  it.each(['24.21.0', '24.99.1'])('does nothing on Node %s', async (version) => {
    expect(await runCheck(process.execPath, version)).toEqual({ status: 0, stderr: '' });
  });

  it.each(['24.20.9', '25.0.0', '26.1.0'])('throws the same error on Node %s, outside package.json engines (>=24.21.0 <25)', async (version) => {
    expect(await runCheck(process.execPath, version)).toEqual({ status: 1, stderr: `Error: @askloop/providers needs Node 24.21.0 or a later Node 24 (not 25 or newer); this is Node ${version}\n` });
  });
});
