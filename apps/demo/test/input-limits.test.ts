import { describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES } from '../src/read-input.ts';
import { spawnCli } from './spawn-cli.ts';

describe('input is read with a cap (the real CLI)', () => {
  it.each([
    [['ns', 'run', '/dev/zero']],
    [['ns', 'check', '/dev/zero']],
    [['envelope', 'digest', '--output', '/dev/zero']],
  ])('stops reading /dev/zero at the limit: askloop %j', async (args) => {
    const result = await spawnCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^askloop: \/dev\/zero: larger than the 4 MiB input limit \(stopped reading after \d+ bytes\) \(CLI_INPUT_TOO_LARGE\)\n/);
  });

  it.each([
    [['ns', 'check', '/dev/null', '--mcp-config', '/dev/zero']],
    [['mcp', 'tools', '--mcp-config', '/dev/zero']],
    [['mcp', 'serve', '--mcp-config', '/dev/zero']],
  ])('stops reading an --mcp-config of /dev/zero at its 1 MiB cap: askloop %j', async (args) => {
    const result = await spawnCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^askloop: \/dev\/zero: --mcp-config \/dev\/zero: larger than the 1 MiB limit of a config file \(stopped reading after \d+ bytes\) \(CLI_INPUT_TOO_LARGE\)\n/);
  });

  it('stops reading a 200 MB pipe at the limit, and says so in the JSON envelope', async () => {
    const result = await spawnCli(['envelope', 'parse'], { stdinBytes: 200_000_000 });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      error: { code: 'CLI_INPUT_TOO_LARGE', message: expect.stringMatching(/^larger than the 4 MiB input limit/), file: '<stdin>' },
    });
    // The CLI exited without draining the pipe: the writer was cut off.
    expect(result.stdinError).toBe('EPIPE');
    expect(result.stdinAccepted).toBeLessThan(200_000_000);
    expect(result.stdinAccepted).toBeGreaterThanOrEqual(MAX_INPUT_BYTES - 65_536);
  });
});
