/**
 * An agent file (`run --agent FILE`, `mcp serve --agent FILE`) and an
 * `--mcp-config FILE` are read as written or refused at their place, as
 * askloop.config.yaml is. Before, what the YAML parser read other than
 * written passed in silence: a tag it does not know (`!custom npx`) or one
 * its value does not fit (`!!float 1`) left the text as written, a key that
 * is a list became the text `[ a, b ]` (with a warning of Node on standard
 * error), a whole number past 2^53 − 1 the nearest double.
 *
 * Each is the reader's own code at FILE:LINE:COLUMN: `LOOP_AGENT_INVALID`
 * (exit 1) for an agent file, `CLI_OPTION_INVALID` (exit 2) for an MCP
 * config. The MCP configs of the guides still load.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMcpConfigText } from '../src/commands/mcp/parse-mcp-config-text.ts';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { spawnCli } from './spawn-cli.ts';
import { tempFolders } from './temp-folder.ts';

const folder = tempFolders('agent-mcp-yaml');

/** How the fix of an unknown tag ends. */
const DROP = 'drop it (a value\'s form gives its type: 8 is a whole number, 1.5 a number, true a boolean, "8" text) or use a tag YAML 1.2 reads: !!str, !!int, !!float, !!bool, !!null';
/** What a list as a key is told. */
const LIST_KEY = "a key that is a list; the file's keys are names: write the name as text (in quotes if it holds [ ] { } or a comma), or put the list after a key (name: [a, b])";
/** What a whole number past 2^53 − 1 is told, after the number. */
const tooLarge = (written: string, read: string): string =>
  `${written} is too large a whole number to be read exactly (whole numbers are exact up to 9007199254740991, either side of zero): it would be read as ${read}; quote it ("${written}") if it is an identifier, or use a smaller number`;
const FLOAT_FORM = '!!float does not fit this value: a !!float is a number with a point or an exponent (1.0, 2.5e3); write the value so, or drop the tag';

const AGENT = 'name: planner\nmodel: openai:gpt-4.1-mini\n';

describe('askloop run --agent FILE: LOOP_AGENT_INVALID at FILE:LINE:COLUMN, exit 1', () => {
  it.each([
    ['an unknown tag', `${AGENT}ceilings:\n  maxTurns: !!flaot 8\n`, 4, 13, `ceilings.maxTurns: unknown tag !!flaot (did you mean !!float?); ${DROP}`],
    ['a local tag', `${AGENT}instructions: !custom Plan first.\n`, 3, 15, `instructions: unknown tag !custom; ${DROP}`],
    ['a tag its value does not fit', `${AGENT}ceilings: { costUsd: !!float 1 }\n`, 3, 22, `ceilings.costUsd: ${FLOAT_FORM}`],
    ['a list as a key', `${AGENT}policy:\n  ? [allow, deny]\n  : [tool.str.*]\n`, 4, 5, `policy: ${LIST_KEY}`],
    ['a whole number too large', `${AGENT}ceilings:\n  tokens: 9007199254740993\n`, 4, 11, `ceilings.tokens: ${tooLarge('9007199254740993', '9007199254740992')}`],
  ])('%s', async (_label, text, line, column, message) => {
    const dir = folder({ 'agent.yaml': text });
    const json = captureIo({ cwd: dir });
    expect(await main(['run', 'task', '--agent', 'agent.yaml', '--db', 'sessions.db', '--json'], json)).toBe(1);
    expect(JSON.parse(json.out).error).toEqual({ code: 'LOOP_AGENT_INVALID', message, file: 'agent.yaml', line, column });
    const plain = captureIo({ cwd: dir });
    expect(await main(['run', 'task', '--agent', 'agent.yaml', '--db', 'sessions.db'], plain)).toBe(1);
    expect(plain.err).toBe(`askloop: agent.yaml:${line}:${column}: ${message} (LOOP_AGENT_INVALID)\n`);
  });

  it('a number past 2^53 − 1 in a JSON agent file too, and every problem at its own place', async () => {
    const dir = folder({
      'agent.json': '{"name": "planner", "model": "openai:gpt-4.1-mini",\n "ceilings": {"tokens": 12345678901234567890, "wallMs": 9007199254740993}}\n',
    });
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'task', '--agent', 'agent.json', '--db', 'sessions.db'], io)).toBe(1);
    expect(io.err).toBe(
      `askloop: agent.json:2:25: ceilings.tokens: ${tooLarge('12345678901234567890', '12345678901234567000')} (2 problems in the file; the others below)\n` +
        `agent.json:2:57: ceilings.wallMs: ${tooLarge('9007199254740993', '9007199254740992')} (LOOP_AGENT_INVALID)\n`,
    );
  });

  it('a syntax error has its place too', async () => {
    const dir = folder({ 'agent.yaml': `${AGENT}ceilings: [unclosed\n` });
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'task', '--agent', 'agent.yaml', '--db', 'sessions.db', '--json'], io)).toBe(1);
    expect(JSON.parse(io.out).error).toMatchObject({ code: 'LOOP_AGENT_INVALID', file: 'agent.yaml', line: 4, column: 1, message: expect.stringMatching(/^not valid JSON or YAML: /) });
  });

  it('mcp serve --agent FILE refuses it the same way, before serving', async () => {
    const dir = folder({ 'agent.yaml': `${AGENT}instructions: !custom Plan first.\n` });
    const io = captureIo({ cwd: dir });
    expect(await main(['mcp', 'serve', '--agent', 'agent.yaml'], io)).toBe(1);
    expect(io.err).toBe(`askloop: agent.yaml:3:15: instructions: unknown tag !custom; ${DROP} (LOOP_AGENT_INVALID)\n`);
  });

  it('the real process prints the one error line, and no warning of Node, for a list as a key', async () => {
    const dir = folder({ 'agent.yaml': `${AGENT}policy:\n  ? [allow, deny]\n  : [tool.str.*]\n` });
    const run = await spawnCli(['run', 'task', '--agent', 'agent.yaml', '--db', 'sessions.db'], { cwd: dir, nodeWarnings: true });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`askloop: agent.yaml:4:5: policy: ${LIST_KEY} (LOOP_AGENT_INVALID)\n`);
  });
});

describe('--mcp-config FILE: CLI_OPTION_INVALID at FILE:LINE:COLUMN, exit 2, starting nothing', () => {
  /** A stdio server that cannot start, so a file read as valid fails fast (MCP_CONNECT_FAILED) instead of starting one. */
  const SERVER = 'servers:\n  kg:\n    command: ./no-such-server\n';

  it.each([
    ['an unknown tag', `${SERVER}    timeoutMs: !!flaot 10000\n`, 4, 16, `servers.kg.timeoutMs: unknown tag !!flaot (did you mean !!float?); ${DROP}`],
    ['a local tag', 'servers:\n  kg:\n    command: !custom ./no-such-server\n', 3, 14, `servers.kg.command: unknown tag !custom; ${DROP}`],
    ['a tag its value does not fit', `${SERVER}    timeoutMs: !!float 10000\n`, 4, 16, `servers.kg.timeoutMs: ${FLOAT_FORM}`],
    ['a list as a key', 'servers:\n  ? [kg, files]\n  : { command: ./no-such-server }\n', 2, 5, `servers: ${LIST_KEY}`],
    ['a whole number too large', `${SERVER}    timeoutMs: 9007199254740993\n`, 4, 16, `servers.kg.timeoutMs: ${tooLarge('9007199254740993', '9007199254740992')}`],
  ])('%s', async (_label, text, line, column, message) => {
    const dir = folder({ 'mcp.yaml': text });
    const json = captureIo({ cwd: dir });
    expect(await main(['mcp', 'tools', '--mcp-config', 'mcp.yaml', '--json'], json)).toBe(2);
    expect(JSON.parse(json.out).error).toEqual({ code: 'CLI_OPTION_INVALID', message: `--mcp-config mcp.yaml: ${message}`, file: 'mcp.yaml', line, column });
    const plain = captureIo({ cwd: dir });
    expect(await main(['mcp', 'tools', '--mcp-config', 'mcp.yaml'], plain)).toBe(2);
    expect(plain.err.split('\n')[0]).toBe(`askloop: mcp.yaml:${line}:${column}: --mcp-config mcp.yaml: ${message} (CLI_OPTION_INVALID)`);
  });

  it('a number past 2^53 − 1 in a JSON config too', async () => {
    const dir = folder({ 'mcp.json': '{"servers": {"kg": {"command": "./no-such-server",\n  "timeoutMs": 9007199254740993}}}\n' });
    const io = captureIo({ cwd: dir });
    expect(await main(['mcp', 'tools', '--mcp-config', 'mcp.json', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out).error).toEqual({ code: 'CLI_OPTION_INVALID', message: `--mcp-config mcp.json: servers.kg.timeoutMs: ${tooLarge('9007199254740993', '9007199254740992')}`, file: 'mcp.json', line: 2, column: 16 });
  });

  it('a key given twice in a JSON config, which JSON would read as its last value alone: a server, or a field of one', async () => {
    const dir = folder({ 'mcp.json': '{"servers": {"kg": {"command": "./one"},\n  "kg": {"command": "./two", "timeoutMs": 1000, "timeoutMs": 2000}}}\n' });
    const io = captureIo({ cwd: dir });
    expect(await main(['mcp', 'tools', '--mcp-config', 'mcp.json', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out).error).toEqual({
      code: 'CLI_OPTION_INVALID',
      message:
        '--mcp-config mcp.json: a key given twice in one object (JSON would keep only its last value): "kg" is one; write it once (2 problems in the file; the others below)\n' +
        'mcp.json:2:49: a key given twice in one object (JSON would keep only its last value): "timeoutMs" is one; write it once',
      file: 'mcp.json',
      line: 2,
      column: 3,
    });
  });

  it('a key given twice in a JSON config whose lines end in a lone carriage return (JSON whitespace the YAML reader did not take for a line end)', async () => {
    const dir = folder({ 'mcp.json': '{"servers": {"kg": {"command": "./one"},\r  "kg": {"command": "./two"}}}\r' });
    const io = captureIo({ cwd: dir });
    expect(await main(['mcp', 'tools', '--mcp-config', 'mcp.json', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out).error).toEqual({
      code: 'CLI_OPTION_INVALID',
      message: '--mcp-config mcp.json: a key given twice in one object (JSON would keep only its last value): "kg" is one; write it once',
      file: 'mcp.json',
      line: 2,
      column: 3,
    });
  });

  it('every problem of a kind in one error, each at its place; a syntax error at its place', async () => {
    const dir = folder({ 'mcp.yaml': `${SERVER}    timeoutMs: !!flaot 10000\n    cwd: !custom /srv\n`, 'broken.yaml': `${SERVER}    args: [unclosed\n` });
    const io = captureIo({ cwd: dir });
    expect(await main(['mcp', 'tools', '--mcp-config', 'mcp.yaml', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out).error).toMatchObject({
      line: 4,
      column: 16,
      message: `--mcp-config mcp.yaml: servers.kg.timeoutMs: unknown tag !!flaot (did you mean !!float?); ${DROP} (2 problems in the file; the others below)\nmcp.yaml:5:10: servers.kg.cwd: unknown tag !custom; ${DROP}`,
    });
    const broken = captureIo({ cwd: dir });
    expect(await main(['mcp', 'tools', '--mcp-config', 'broken.yaml', '--json'], broken)).toBe(2);
    expect(JSON.parse(broken.out).error).toMatchObject({ code: 'CLI_OPTION_INVALID', file: 'broken.yaml', line: 5, column: 1, message: expect.stringMatching(/^--mcp-config broken\.yaml: not YAML \(/) });
  });

  it('the tags YAML knows are read, as are a large id in quotes and the largest exact whole number', () => {
    const text = 'servers:\n  kg:\n    command: !!str ./server\n    args: !!seq ["12345678901234567890"]\n    timeoutMs: !!int "10000"\n    maxResultBytes: 9007199254740991\n';
    expect(parseMcpConfigText(text, 'mcp.yaml')).toEqual({ kg: { command: './server', args: ['12345678901234567890'], timeoutMs: 10000, maxResultBytes: 9007199254740991 } });
  });
});

/** The MCP configs written out in the guides (fenced JSON or YAML blocks with `servers`). */
function guideConfigs(): { readonly where: string; readonly form: 'json' | 'yaml'; readonly text: string }[] {
  const found: { where: string; form: 'json' | 'yaml'; text: string }[] = [];
  for (const file of ['../../../packages/mcp/README.md', '../../../docs/using-mcp-servers.md']) {
    const markdown = readFileSync(new URL(file, import.meta.url), 'utf8');
    for (const match of markdown.matchAll(/^```(json|yaml)\n([\s\S]*?)^```$/gm)) {
      const [, form, text] = match as unknown as [string, 'json' | 'yaml', string];
      if (/^\s*\{?\s*"?servers"?:/.test(text)) found.push({ where: `${file.replace(/^(\.\.\/)+/, '')}:${markdown.slice(0, match.index).split('\n').length}`, form, text });
    }
  }
  return found;
}

describe('the MCP configs of the guides still load', () => {
  const configs = guideConfigs();

  it('finds them (a JSON and a YAML one in each guide)', () => {
    expect(configs.map(({ form }) => form)).toEqual(['json', 'yaml', 'json', 'yaml']);
  });

  it.each(configs.map((config) => [config.where, config]))('%s', (_where, { form, text }) => {
    const servers = parseMcpConfigText(text, `mcp.${form}`);
    expect(Object.keys(servers).length).toBeGreaterThan(0);
  });
});
