/** `askloop init`: writes a config that loads, never overwrites without --force, and holds no key. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.ts';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-init-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('askloop init', () => {
  it('writes askloop.config.yaml that loadConfig accepts', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['init'], io)).toBe(0);
    expect(io.out).toContain('Wrote askloop.config.yaml');
    const config = await loadConfig(join(dir, 'askloop.config.yaml'));
    expect(Object.keys(config.agents)).toEqual(['hello']);
    expect(readFileSync(join(dir, 'askloop.config.yaml'), 'utf8')).not.toMatch(/sk-|apiKey:/);
  });

  it('refuses to overwrite a file unless --force', async () => {
    writeFileSync(join(dir, 'mine.yaml'), 'plugins: []\n');
    const io = captureIo({ cwd: dir });
    expect(await main(['init', 'mine.yaml', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out)).toEqual({ ok: false, error: { code: 'CONFIG_EXISTS', message: expect.stringContaining('--force'), file: 'mine.yaml' } });
    expect(readFileSync(join(dir, 'mine.yaml'), 'utf8')).toBe('plugins: []\n');
    const forced = captureIo({ cwd: dir });
    expect(await main(['init', 'mine.yaml', '--force', '--json'], forced)).toBe(0);
    expect(JSON.parse(forced.out)).toEqual({ ok: true, file: join(dir, 'mine.yaml') });
  });
});
