/**
 * YAML merge keys (`<<: *base`) in askloop.config.yaml and `--mcp-config`
 * files. The files are YAML 1.2, which dropped the merge key, so `<<` used to
 * be read as a key of that name: `agents.helper.<<: unknown key '<<'`. It now
 * merges as docker compose files have it, and every check names and places a
 * merged value where the data has it and where it is written.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.ts';
import { parseMcpConfigText } from '../src/commands/mcp/parse-mcp-config-text.ts';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { configError } from './config-error.ts';
import { tempFolders } from './temp-folder.ts';

const folder = tempFolders('config-merge-keys');
const read = (text: string) => parseConfig(text, { file: '/project/askloop.config.yaml', display: 'askloop.config.yaml' });

/** Two agents: `base`, anchored, and `helper`, which merges it and adds its own (line 7 onwards). */
const BASE = ['agents:', '  base: &base', '    model: scripted:x', '    instructions: from the base', '    ceilings:', '      maxTurns: 3'];

const MERGE_FIX = 'a merge key (<<) takes a map, an alias of one (<<: *base) or a list of them (<<: [*base, *more]): their keys are copied into this map';

describe('a merge key copies the keys of the maps it names', () => {
  it('an agent made from another: its own keys win, written before or after the merge', () => {
    const config = read([...BASE, '  helper:', '    instructions: its own', '    <<: *base', '  second:', '    <<: *base', '    ceilings: { maxTurns: 5 }', ''].join('\n'));
    expect(config.agents['helper']).toMatchObject({ model: 'scripted:x', instructions: 'its own', ceilings: { maxTurns: 3 } });
    expect(config.agents['second']).toMatchObject({ model: 'scripted:x', instructions: 'from the base', ceilings: { maxTurns: 5 } });
    expect(Object.keys(config.agents['helper'] ?? {})).not.toContain('<<');
  });

  it('a list of maps: a key comes from the first that has it; a map written in place merges too', () => {
    const text = ['agents:', '  a: &a { model: scripted:a, instructions: from a }', '  b: &b { model: scripted:b, description: from b }', '  c:', '    <<: [*a, *b, { maxAskDepth: 0 }]', ''].join('\n');
    expect(read(text).agents['c']).toMatchObject({ model: 'scripted:a', instructions: 'from a', description: 'from b', maxAskDepth: 0 });
  });

  it("a merged model is located where it is written (the model's line is where a missing provider is reported)", () => {
    const config = read([...BASE, '  helper:', '    <<: *base', ''].join('\n'));
    expect(config.modelLocations.agents['helper']).toMatchObject({ line: 3, column: 12 });
  });

  it('an MCP server made from another in an --mcp-config file', () => {
    const text = ['servers:', '  one: &server', '    command: node', '    args: [server.mjs]', '    env: { TRACKER_TOKEN: "${TRACKER_TOKEN}" }', '  two:', '    <<: *server', '    args: [other.mjs]', ''].join('\n');
    const servers = parseMcpConfigText(text, 'servers.yaml');
    expect(servers['two']).toMatchObject({ command: 'node', args: ['other.mjs'], env: { TRACKER_TOKEN: '${TRACKER_TOKEN}' } });
  });

  it('"<<" in quotes is a key like any other, as in JSON', () => {
    expect(configError([...BASE, '  helper:', '    "<<": *base', ''].join('\n'))).toMatchObject({ code: 'CONFIG_INVALID', line: 8, column: 5, message: expect.stringContaining("agents.helper.<<: unknown key '<<'") });
  });
});

describe('a mistake in a merged value is reported at the place it is written', () => {
  it('a wrong value in the anchored map: once for each agent that has it, each at its line', () => {
    const error = configError(['agents:', '  base: &base', '    model: scripted:x', '    ceilings:', '      maxTurns: -3', '  helper:', '    <<: *base', ''].join('\n'));
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', line: 5, column: 17 });
    expect(error.message).toBe('agents.base.ceilings.maxTurns: expected a whole number ≥ 1, got number -3 (2 problems in the file; the others below)\naskloop.config.yaml:5:17: agents.helper.ceilings.maxTurns: expected a whole number ≥ 1, got number -3');
  });

  it('an unknown key brought in by a merge: at the key, in the map written in place', () => {
    expect(configError(['agents:', '  helper:', '    model: scripted:x', '    <<: { instrutions: hi }', ''].join('\n'))).toMatchObject({
      code: 'CONFIG_INVALID',
      line: 4,
      column: 11,
      message: expect.stringContaining("agents.helper.instrutions: unknown key 'instrutions'; did you mean 'instructions'?"),
    });
  });

  it('a value under an alias is located in the anchored map', () => {
    const text = ['quotas: &q', '  fuel: lots', 'agents:', '  a:', '    model: scripted:x', '    quotas: *q', ''].join('\n');
    const error = configError(text);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', line: 2, column: 9 });
    expect(error.message).toContain('askloop.config.yaml:2:9: agents.a.quotas.fuel: ');
  });

  it('a key written in a merged map is named by the path it lands at (CONFIG_SECRET)', () => {
    expect(configError(['agents:', '  a:', '    model: scripted:x', '    settings:', '      <<: { apiKey: not-a-reference }', ''].join('\n'))).toMatchObject({
      code: 'CONFIG_SECRET',
      line: 5,
      column: 21,
      message: expect.stringContaining("'apiKey' looks like a key"),
    });
  });

  it('a whole number past 2^53 in a merged map is named by the path it lands at', () => {
    expect(configError(['plugins:', '  - package: ./p.mjs', '    options:', '      <<: { id: 12345678901234567890 }', ''].join('\n'))).toMatchObject({
      code: 'CONFIG_INVALID',
      line: 4,
      column: 17,
      message: expect.stringMatching(/^plugins\[0\]\.options\.id: 12345678901234567890 is too large/),
    });
  });
});

describe('a merge that cannot be read: CONFIG_INVALID at its value, not a parser error without a line', () => {
  // The anchored list stands in a plugin's options, where a list is fine: only the merge is wrong.
  const LISTED = ['plugins:', '  - package: ./p.mjs', '    options: { list: &list [1, 2] }', ...BASE, '  helper:'];
  it.each([
    ['a number', '    <<: 5'],
    ['a list holding a number', '    <<: [*base, 5]'],
    ['an alias of a list', '    <<: *list'],
  ])('%s', (_label, merge) => {
    expect(configError([...LISTED, merge, ''].join('\n'))).toMatchObject({ code: 'CONFIG_INVALID', line: 11, column: 9, message: `agents.helper: ${MERGE_FIX}` });
  });

  it('a quoted key tagged !!merge, which merges nothing and would vanish', () => {
    expect(configError([...BASE, '  helper:', '    !!merge "x": *base', ''].join('\n'))).toMatchObject({
      code: 'CONFIG_INVALID',
      line: 8,
      column: 13,
      message: 'agents.helper: a quoted key tagged !!merge merges nothing: write the merge key as << (unquoted, no tag)',
    });
  });
});

describe('through the CLI', () => {
  it('askloop run --agent with an agent made by a merge key', async () => {
    const reply = '<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{}\n<<<NSENV:V4:ACTIONS>>>\ncommand\n  emit "<<<LOOP:DONE>>> merged"\nendcommand\n<<<NSENV:V4:END>>>\n';
    const dir = folder({ 'askloop.config.yaml': [...BASE, '  helper:', '    <<: *base', ''].join('\n'), 'replies.json': JSON.stringify([reply]) });
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--agent', 'helper', '--script', 'replies.json', '--db', join(dir, 's.db')], io)).toBe(0);
    expect(io.out).toBe('merged\n');
  });
});
