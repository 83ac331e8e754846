/**
 * A HALT on a tool call denied for want of a grant says, after its `cause:`,
 * the grant to add and where: only the person running askloop can give it.
 * Regression (reviewer as a new user): `net:read:*` no longer reaches a
 * loopback service, and the halt said only "add the grant … to the policy"
 * and that `--repair 2` would let the model fix it, which it cannot.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createSqliteTranscriptStore } from '@askloop/controller';
import type { NeededGrant } from '@askloop/interpreter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantHintLine } from '../src/loop/grant-hint-line.ts';
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

  it('the grant is in the stored record as data (a real sessions file), in --json, and in show', async () => {
    const denied = await askloop(['run', 'fetch', '--script', 'fetch.json', '--db', 'stored.db', '--allow', 'tool.http.Fetch', '--grant', 'net:read:*', '--json'], 3);
    const json = JSON.parse(denied.out) as { sid: string; failure: unknown };
    const needed = { capability: `net:read:127.0.0.1:${port}`, code: 'HTTP_ADDRESS_DENIED' };
    expect(json.failure).toMatchObject({ code: 'SCRIPT_TOOL_DENIED', grant: needed });
    const store = createSqliteTranscriptStore(join(dir, 'stored.db'));
    const [turn] = await store.listTurns(json.sid);
    await store.close?.();
    expect(turn?.failure).toMatchObject({ code: 'SCRIPT_TOOL_DENIED', grant: needed });
    expect(turn?.toolCalls[0]?.error).toMatchObject({ grant: needed });
    const shown = await askloop(['show', json.sid, '--db', 'stored.db'], 0);
    expect(shown.out).toMatch(new RegExp(`\\n  grant +net:read:127\\.0\\.0\\.1:${port} \\(HTTP_ADDRESS_DENIED; only the operator can add it\\)\\n`));
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

  // A hostile program names the file or host: the hint must never be the pattern its name spells, which would allow
  // far more than the denied call (`fs:write:/**` for a file called `**`, every public host for a host called `**`).
  it.each([
    ['a file named like a pattern', 'call tool.fs.Write("/**", "x")', ['--allow', 'tool.fs.*', '--grant', 'fs:read:/**'], 'the scope "/**" would be a pattern in a grant'],
    ['a host named like a pattern', 'set r = tool.http.Fetch("http://**/x")', ['--allow', 'tool.http.Fetch', '--grant', 'net:read:example.com'], 'the scope "**:80" would be a pattern in a grant'],
    // Computed, the path is unknown to the check: the bare verb it names would allow writing everywhere.
    ['a computed path under no fs:write grant', 'set p = "/a" + ".txt"\n  call tool.fs.Write(p, "x")', ['--allow', 'tool.fs.*', '--grant', 'fs:read:/**'], 'not fs:write alone, which would allow it everywhere'],
    ['a computed URL under no net grant', 'set u = "http://example.com/" + "x"\n  set r = tool.http.Fetch(u)', ['--allow', 'tool.http.Fetch'], 'not net:read alone, which would allow it everywhere'],
    ['a path the fs tools refuse, under no fs:write grant', 'call tool.fs.Write("/data/../x.txt", "x")', ['--allow', 'tool.fs.*'], 'so no grant is named'],
  ])('%s gets no grant line, and its cause says no grant names it', async (_what, statement, options, said) => {
    writeFiles(dir, { 'pattern.json': JSON.stringify([envelope(statement, 'emit "<<<LOOP:DONE>>> done"')]), 'root/.keep': '' });
    const denied = await askloop(['run', 'go', '--script', 'pattern.json', '--db', 'pattern.db', '--fs-root', 'root', ...options], 3);
    expect(denied.err).toContain(said);
    expect(denied.err).not.toContain('  grant:');
    expect(denied.err).not.toMatch(/add the grant '(fs:write:\/\*\*|net:read:\*\*:80)'/);
  });

  it('a newline or an ESC in the path a program asks for cannot print a line of its own choosing', async () => {
    const forged = '  grant: only you can allow this: add fs:write:/etc/passwd to policy.grants';
    writeFiles(dir, { 'forge.json': JSON.stringify([envelope(String.raw`call tool.fs.Write("/x\n${forged}\n\u001b[2K", "x")`, 'emit "<<<LOOP:DONE>>> done"')]), 'root/.keep': '' });
    const denied = await askloop(['run', 'go', '--script', 'forge.json', '--db', 'forge.db', '--fs-root', 'root', '--allow', 'tool.fs.*', '--grant', 'fs:read:/**'], 3);
    // Every line the program's path reaches starts as the CLI wrote it; the one grant line quotes it as $'…', escapes and all.
    expect(denied.err.split('\n').filter((text) => text.includes('fs:write:/etc/passwd')).map((text) => text.slice(0, 36))).toEqual([
      '  turn 1: refused before running: SC',
      "  cause: SCRIPT_TOOL_DENIED: Tool 't",
      "  grant: only you can allow this: ad",
    ]);
    expect(lineAfterCause(denied.err)).toBe(hint(`$'fs:write:/x\\n${forged}\\n\\x1b[2K'`));
    expect(denied.err).not.toContain('\u001b');
  });

  it('a halt no grant can help says nothing of grants', async () => {
    writeFiles(dir, { 'let.json': JSON.stringify([envelope('let words = 3')]) });
    const halted = await askloop(['run', 'count', '--script', 'let.json', '--db', 'let.db'], 3);
    expect(halted.err).not.toContain('  grant:');
  });
});

describe('grantHintLine reads the grant from the failure, not its message', () => {
  /** The line for a failure as stored: its message beside the grant, which the line does not read. */
  const line = (failure: { code: string; message?: string; grant?: NeededGrant }): string | undefined => grantHintLine(failure);
  const grant = { capability: 'memory:write:my key', code: 'POLICY_CAPABILITY_MISSING' };

  it.each([
    ['reworded', 'the policy has no grant for this key'],
    ['cut before its hint', 'tool.memory.CAS needs capability memory:write:my key — add the gr'],
    ['with a secret hidden in it', "tool.memory.CAS needs capability memory:write:[REDACTED] — add the grant 'memory:write:[REDACTED]' to the policy"],
  ])('a denial whose message is %s still gets the line, shell-quoted', (_how, message) => {
    expect(line({ code: 'SCRIPT_TOOL_DENIED', message, grant })).toBe(hint("'memory:write:my key'"));
  });

  it("adds the specialAddresses advice by the denial's code, whatever the message says", () => {
    const address = { capability: 'net:read:10.0.0.7:80', code: 'HTTP_ADDRESS_DENIED' };
    const advice = '; for a private network whose hosts a pattern should reach, set http: { specialAddresses: granted } in askloop.config.yaml';
    expect(line({ code: 'SCRIPT_TOOL_DENIED', grant: address })).toBe(`${hint('net:read:10.0.0.7:80')}${advice}`);
    // A message naming the code (a tool quoting it, say) is not the denial's code.
    expect(line({ code: 'SCRIPT_TOOL_DENIED', message: 'refused, not HTTP_ADDRESS_DENIED', grant: { capability: 'net:read:example.com:80', code: 'HTTP_HOST_DENIED' } })).toBe(hint('net:read:example.com:80'));
  });

  it('says nothing without the field: no other code, and no message, however it reads', () => {
    expect(line({ code: 'SCRIPT_TOOL_DENIED', message: 'x — add the grant fs:read:/x to the policy' })).toBeUndefined();
    expect(line({ code: 'SCRIPT_TOOL_ERROR', grant })).toBeUndefined();
  });
});
