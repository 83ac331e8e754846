/**
 * A HALT on a tool call denied for want of a grant says, after its `cause:`,
 * the grant to add and where: only the person running askloop can give it.
 * Regression (reviewer as a new user): `net:read:*` no longer reaches a
 * loopback service, and the halt said only "add the grant … to the policy"
 * and that `--repair 2` would let the model fix it, which it cannot.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo, type CapturedIo } from './capture-io.ts';
import { lineAfterCause } from './line-after-cause.ts';
import { envelope } from './envelope-reply.ts';
import { tempFolder, writeFiles } from './temp-folder.ts';

const dir = tempFolder('grant-hint');
let server: Server;
let port = 0;
let requests = 0;

beforeAll(async () => {
  server = createServer((_request, response) => {
    requests += 1;
    response.end('hello internal');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  port = (server.address() as AddressInfo).port;
  writeFiles(dir, {
    'fetch.json': JSON.stringify([envelope(`set r = tool.http.Fetch("http://127.0.0.1:${port}/")`, 'emit "<<<LOOP:DONE>>> " + r["body"]')]),
    'cas.json': JSON.stringify([envelope('call tool.memory.CAS("my key", 0, "v")', 'emit "<<<LOOP:DONE>>> set"')]),
  });
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

/** Runs `askloop ARGS` in `dir`; returns its io once `expected` was its exit code. */
async function askloop(args: string[], expected: number): Promise<CapturedIo> {
  const io = captureIo({ cwd: dir });
  expect(await main(args, io), io.err).toBe(expected);
  return io;
}


const hint = (grant: string) => `  grant: only you can allow this: add ${grant} to policy.grants in the agent's file or config entry, or pass --grant ${grant} (with a --grant for each grant the agent has: the option replaces its list), and run the task again`;

describe('the grant hint after a HALT', () => {
  it('a loopback service under net:read:* is HTTP_ADDRESS_DENIED, and the hint names the grant that reaches it, which then does', async () => {
    const denied = await askloop(['run', 'fetch', '--script', 'fetch.json', '--db', 'fetch.db', '--allow', 'tool.http.Fetch', '--grant', 'net:read:*'], 3);
    expect(denied.err).toContain('HTTP_ADDRESS_DENIED');
    expect(lineAfterCause(denied.err)).toBe(`${hint(`net:read:127.0.0.1:${port}`)}; for a private network whose hosts a pattern should reach, set http: { specialAddresses: granted } in askloop.config.yaml`);
    expect(requests).toBe(0);
    const granted = await askloop(['run', 'fetch', '--script', 'fetch.json', '--db', 'fetch.db', '--allow', 'tool.http.Fetch', '--grant', `net:read:127.0.0.1:${port}`], 0);
    expect(granted.out).toBe('hello internal\n');
    expect(requests).toBe(1);
  });

  it('a missing capability refused before the program runs names its grant shell-quoted, as the tools wrote it', async () => {
    const denied = await askloop(['run', 'set', '--script', 'cas.json', '--db', 'cas.db', '--allow', 'tool.memory.*', '--grant', 'memory:write:other'], 3);
    expect(lineAfterCause(denied.err)).toBe(hint("'memory:write:my key'"));
  });

  it("the config's http: { specialAddresses: granted } lets a net pattern reach it, in run and in ns run --http --config", async () => {
    writeFiles(dir, {
      'granted.yaml': 'http:\n  specialAddresses: granted\n',
      'fetch.ns': `command\n  set r = tool.http.Fetch("http://127.0.0.1:${port}/")\n  emit r["body"]\nendcommand\n`,
    });
    const before = requests;
    const run = await askloop(['run', 'fetch', '--config', 'granted.yaml', '--script', 'fetch.json', '--db', 'granted.db', '--allow', 'tool.http.Fetch', '--grant', 'net:read:*'], 0);
    expect(run.out).toBe('hello internal\n');
    const ns = await askloop(['ns', 'run', 'fetch.ns', '--config', 'granted.yaml', '--http', '--allow', 'tool.http.Fetch', '--grant', 'net:read:*'], 0);
    expect(ns.out).toBe('hello internal\n');
    expect(requests).toBe(before + 2);
    // Without the setting, the same ns run is refused: the default is 'named'.
    await askloop(['ns', 'run', 'fetch.ns', '--http', '--allow', 'tool.http.Fetch', '--grant', 'net:read:*'], 1);
    expect(requests).toBe(before + 2);
  });

  it('a value http.specialAddresses does not take is CONFIG_INVALID at its line, saying both choices', async () => {
    writeFiles(dir, { 'bad-http.yaml': 'http:\n  specialAddresses: all\n' });
    const bad = await askloop(['run', 'fetch', '--config', 'bad-http.yaml', '--script', 'fetch.json', '--db', 'bad.db'], 1);
    expect(bad.err).toContain('bad-http.yaml:2:21: http.specialAddresses: expected named (the default');
    expect(bad.err).toContain('or granted (any grant covering the host does');
    expect(bad.err).toContain('(CONFIG_INVALID)');
  });

  it('a halt no grant can help says nothing of grants', async () => {
    writeFiles(dir, { 'let.json': JSON.stringify([envelope('let words = 3')]) });
    const halted = await askloop(['run', 'count', '--script', 'let.json', '--db', 'let.db'], 3);
    expect(halted.err).not.toContain('  grant:');
  });
});
