/**
 * `askloop run` warns about an allow pattern that matches no tool of its host
 * (a typo, or `tool.fs.*` without --fs-root), which the policy would take and
 * allow nothing by, and says what it likely meant. Tools an MCP server lists
 * once started are not judged before then.
 */
import { definePlugin } from '@askloop/controller';
import { defineTool, defineToolPack } from '@askloop/tools';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from './capture-io.ts';
import { main } from '../src/main.ts';
import { allowPatternWarnings, hostToolNames, unmatchedAllowPatterns } from '../src/options/allow-pattern-warnings.ts';
import { guardMissingTools } from '../src/commands/worker-tools-guard.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-allow-warnings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const notes = definePlugin({
  name: 'notes',
  specificationVersion: 'v1',
  toolPacks: [defineToolPack('notes', [defineTool({ name: 'tool.notes.Add', description: 'Adds a note.', args: [] }, () => 'added')])],
});
/** A tool source as an MCP plugin's is: it names its servers before it starts them. */
const mcp = definePlugin({ name: 'mcp', specificationVersion: 'v1', toolSources: [{ name: 'mcp', toolPacks: async () => [], status: () => ({ github: { connected: false } }) } as never] });

describe('allowPatternWarnings', () => {
  const tools = hostToolNames([notes, mcp], dir, undefined);
  const warn = (pattern: string) => allowPatternWarnings([pattern], tools);

  it("says nothing for patterns that match a tool: built-in, a plugin's, everything", () => {
    for (const pattern of ['tool.str.*', 'str.Length', '*.Length', 'tool.notes.Add', '**', '*', 'tool.http.Fetch']) expect(warn(pattern), pattern).toEqual([]);
  });

  it('names a group or a tool one or two letters away', () => {
    expect(warn('tool.strr.*')).toEqual(["policy.allow 'tool.strr.*' matches no tool of this host, so it allows nothing; did you mean 'tool.str.*'?"]);
    expect(warn('tool.str.Lenght')).toEqual(["policy.allow 'tool.str.Lenght' matches no tool of this host, so it allows nothing; did you mean 'tool.str.Length'?"]);
    expect(warn('tool.note.Add')).toEqual(["policy.allow 'tool.note.Add' matches no tool of this host, so it allows nothing; did you mean 'tool.notes.add'?"]);
    expect(warn('tool.nothing.Like.this')).toEqual(["policy.allow 'tool.nothing.Like.this' matches no tool of this host, so it allows nothing"]);
  });

  // Walkthrough: `--allow 'tool.*'` meant "every tool", matched none, and the warning said only that it allowed nothing.
  it("says that '*' stays in one segment when '**' would match ('tool.*' for every tool)", () => {
    const plain = hostToolNames([notes], dir, undefined);
    expect(allowPatternWarnings(['tool.*'], plain)).toEqual(["policy.allow 'tool.*' matches no tool of this host, so it allows nothing; '*' matches one name segment after its dot: did you mean 'tool.**' (every tool under it)?"]);
    expect(allowPatternWarnings(['tool.*'], plain, '--allow')).toEqual(["--allow 'tool.*' matches no tool of this host, so it allows nothing; '*' matches one name segment after its dot: did you mean 'tool.**' (every tool under it)?"]);
  });

  it('says that --fs-root adds tool.fs.*, and nothing once it is given', () => {
    expect(warn('tool.fs.Read')).toEqual(["policy.allow 'tool.fs.Read' matches no tool of this host, so it allows nothing (tool.fs.* is there with --fs-root DIR)"]);
    expect(allowPatternWarnings(['tool.fs.Read'], hostToolNames([], dir, dir))).toEqual([]);
  });

  it("does not judge what an MCP server lists later: its group, or a pattern whose group is a wildcard; a near miss of its name is named", () => {
    for (const pattern of ['tool.github.*', 'tool.github.create_issue', 'tool.*.create_issue']) expect(warn(pattern), pattern).toEqual([]);
    expect(warn('tool.githb.*')).toEqual(["policy.allow 'tool.githb.*' matches no tool of this host, so it allows nothing; did you mean 'tool.github.*'?"]);
    // A source that does not name its groups may list anything: no pattern is judged.
    const opaque = definePlugin({ name: 'opaque', specificationVersion: 'v1', toolSources: [{ name: 'opaque', toolPacks: async () => [] }] });
    expect(allowPatternWarnings(['tool.anything.*'], hostToolNames([opaque], dir, undefined))).toEqual([]);
  });
});

describe('tools a host lacks, apart from typos (what a worker refuses a step for)', () => {
  const tools = hostToolNames([notes], dir, undefined);
  it('marks a group no tool of the host has, and tool.fs.* without a root; not a near miss, nor a missing tool of a known group', () => {
    expect(unmatchedAllowPatterns(['tool.ops.*', 'tool.fs.Read', 'tool.strr.*', 'tool.str.Nothing', 'tool.*.Nothing'], tools).map(({ pattern, toolsMissing }) => [pattern, toolsMissing])).toEqual([
      ['tool.ops.*', true],
      ['tool.fs.Read', true],
      ['tool.strr.*', false],
      ['tool.str.Nothing', false],
      ['tool.*.Nothing', false],
    ]);
  });

  it("guardMissingTools fails the step of a running session whose agent allows them (LOOP_TOOLS_MISSING), and steps the others", async () => {
    const stepped: string[] = [];
    const loop = { step: async (sid: string) => (stepped.push(sid), { sid }) as never };
    const sessions: Record<string, unknown> = {
      ops: { status: 'running', agentDefinition: { policy: { allow: ['tool.str.*', 'tool.ops.*'] } } },
      typo: { status: 'running', agentDefinition: { policy: { allow: ['tool.strr.*'] } } },
      plain: { status: 'running', agentDefinition: { name: 'a' } },
    };
    const guarded = guardMissingTools(loop, { getSession: async (sid: string) => sessions[sid] as never }, tools);
    await expect(guarded.step('ops')).rejects.toMatchObject({ code: 'LOOP_TOOLS_MISSING', message: expect.stringContaining("its agent allows 'tool.ops.*', and this worker has no such tool") });
    await guarded.step('typo');
    await guarded.step('plain');
    expect(stepped).toEqual(['typo', 'plain']);
  });
});

describe('askloop run', () => {
  it('prints the warning on standard error and runs the session as asked', async () => {
    const reply = '<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{}\n<<<NSENV:V4:ACTIONS>>>\ncommand\n  emit "<<<LOOP:DONE>>> ok"\nendcommand\n<<<NSENV:V4:END>>>\n';
    writeFileSync(join(dir, 'replies.json'), JSON.stringify([reply]));
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--script', 'replies.json', '--db', 'w.db', '--allow', 'tool.strr.*', '--allow', 'tool.list.*', '--deny', 'tool.htpp.*'], io)).toBe(0);
    expect(io.out).toBe('ok\n');
    expect(io.err).toContain("askloop: warning: policy.allow 'tool.strr.*' matches no tool of this host, so it allows nothing; did you mean 'tool.str.*'?\n");
    // A misspelt deny leaves the tool it meant allowed: the worse mistake.
    expect(io.err).toContain("askloop: warning: policy.deny 'tool.htpp.*' matches no tool of this host, so it denies nothing; did you mean 'tool.http.*'?\n");
    expect(io.err).not.toContain('tool.list');
  });
});
