/**
 * `askloop ns run|check|tools` warn about an --allow or --deny pattern that
 * matches no tool the options give them, as `askloop run` warns about its
 * agent's policy: a typo, or tool.fs.* / tool.http.* without the option that
 * adds them. Regression: the pattern was taken silently and the program's
 * calls were refused as not allowed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, defineToolPack } from '@askloop/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { buildToolSetup } from '../src/commands/ns/tool-options.ts';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-ns-patterns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'count.ns');
writeFileSync(file, 'command\n  emit tool.str.Length("abc")\nendcommand\n');

const warningsOf = async (...args: string[]): Promise<string[]> => {
  const io = captureIo({ cwd: dir });
  await main(['ns', ...args], io);
  return io.err.split('\n').filter((line) => line.startsWith('askloop: warning:'));
};

describe('askloop ns pattern warnings', () => {
  it('says what a pattern that matches nothing likely meant, for run, check and tools', async () => {
    expect(await warningsOf('run', file, '--allow', 'tool.strr.*')).toEqual(["askloop: warning: --allow 'tool.strr.*' matches no tool of this host, so it allows nothing; did you mean 'tool.str.*'?"]);
    expect(await warningsOf('check', file, '--allow', 'tool.str.Lenght')).toEqual(["askloop: warning: --allow 'tool.str.Lenght' matches no tool of this host, so it allows nothing; did you mean 'tool.str.Length'?"]);
    expect(await warningsOf('tools', '--allow', 'tool.fs.*')).toEqual(["askloop: warning: --allow 'tool.fs.*' matches no tool of this host, so it allows nothing (tool.fs.* is there with --fs-root DIR)"]);
    expect(await warningsOf('run', file, '--allow', 'tool.http.*')).toEqual(["askloop: warning: --allow 'tool.http.*' matches no tool of this host, so it allows nothing (tool.http.Fetch is there with --http)"]);
    expect(await warningsOf('run', file, '--allow', 'tool.str.*', '--deny', 'tool.str.Lenght')).toEqual(["askloop: warning: --deny 'tool.str.Lenght' matches no tool of this host, so it denies nothing; did you mean 'tool.str.Length'?"]);
  });

  it('says nothing for patterns that match, the default allow list, or a deny of tools the options did not add', async () => {
    expect(await warningsOf('run', file)).toEqual([]);
    expect(await warningsOf('run', file, '--allow', 'tool.str.*', '--deny', 'tool.fs.*', '--deny', 'tool.http.*')).toEqual([]);
    expect(await warningsOf('run', file, '--allow', 'tool.fs.*', '--fs-root', dir, '--allow', 'tool.http.Fetch', '--http')).toEqual([]);
    expect(await warningsOf('tools', '--allow', '**')).toEqual([]);
  });

  it("names mcp serve's own option for tool.http.Fetch (--http is its port there)", () => {
    const io = captureIo({ cwd: dir });
    buildToolSetup({ allow: ['tool.http.*'] }, io, undefined, '--http-tools');
    expect(io.err).toBe("askloop: warning: --allow 'tool.http.*' matches no tool of this host, so it allows nothing (tool.http.Fetch is there with --http-tools)\n");
  });

  // Review: the tools the option would add were listed in a registry with the config's packs, which refused a
  // plugin's own pack named fs or http as a duplicate and failed the command (TOOL_DUPLICATE), though no option was given.
  it.each(['fs', 'http'])("takes a config plugin's own pack named '%s' when the option that adds the built-in one is not given", (name) => {
    const pack = defineToolPack(name, [defineTool({ name: `tool.${name}.Mine`, description: 'mine', args: [] }, () => 'x')]);
    const io = captureIo({ cwd: dir });
    const setup = buildToolSetup({ allow: [`tool.${name}.*`, 'tool.str.Lenght'] }, io, { packs: [pack], capabilities: [], sources: [] });
    expect(setup.registry.get(`tool.${name}.mine`)?.displayName).toBe(`tool.${name}.Mine`);
    expect(io.err).toBe("askloop: warning: --allow 'tool.str.Lenght' matches no tool of this host, so it allows nothing; did you mean 'tool.str.Length'?\n");
  });
});
