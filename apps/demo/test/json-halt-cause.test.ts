/**
 * `askloop run --json` of a loop that halted carries why: the decision's
 * message and the last turn's failure. Regression: the object held only the
 * reason (ERR_PROVIDER), so a script could not tell a missing key from an
 * outage without running `show`; text mode printed the cause.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-json-cause-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('run --json of a HALT', () => {
  it('carries the message and the failure; a DONE carries neither', async () => {
    writeFileSync(join(dir, 'empty.json'), '[]');
    const halted = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--script', 'empty.json', '--db', 'h.db', '--json'], halted)).toBe(3);
    const json = JSON.parse(halted.out) as Record<string, unknown>;
    expect(json).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', failure: { code: 'PROVIDER_SCRIPT_EXHAUSTED', kind: 'provider', message: expect.stringContaining('no reply left') } });
    expect(json['message']).toEqual(expect.stringContaining('PROVIDER_SCRIPT_EXHAUSTED'));
    // The code once: the provider's own message names it already.
    expect(String(json['message']).match(/PROVIDER_SCRIPT_EXHAUSTED/g)).toHaveLength(1);
    writeFileSync(join(dir, 'done.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> fine"')]));
    const done = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--script', 'done.json', '--db', 'd.db', '--json'], done)).toBe(0);
    expect(Object.keys(JSON.parse(done.out) as object)).toEqual(['status', 'reason', 'result', 'turns', 'sid', 'decisions']);
  });
});
