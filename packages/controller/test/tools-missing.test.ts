/**
 * A host without a tool the session's checked program needs (a plugin or an
 * MCP server its first host had) must not end the session: approving there
 * records nothing, and continuing a turn there (approved, or cut by a crash)
 * saves nothing — both are LOOP_TOOLS_MISSING, naming the tools — and a host
 * that has them finishes the session afterwards.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { createScriptedProvider } from '@askloop/providers';
import { createSafeToolPacks } from '@askloop/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'deployer', model: 'scripted:m', policy: { allow: ['tool.test.*'] } };
const reply = program('emit "<<<LOOP:DONE>>> " + tool.test.Deploy("prod")');
/** A host with the same model but not the plugin's tools (`tool.test.*`). */
const bare = () => definePlugin({ name: 'bare', specificationVersion: 'v1', providers: { scripted: createScriptedProvider({ models: { m: [] } }) }, toolPacks: createSafeToolPacks() });

describe('a host without the tools of a checked program', () => {
  it('refuses to record an approval (nothing recorded); the host with them approves and finishes', async () => {
    const store = createMemoryTranscriptStore();
    const full = createAskLoop({ plugins: [testPlugin({ m: [reply] })], store, pool });
    expect(await full.run({ agent, task: 'ship', sid: 's' })).toMatchObject({ status: 'PAUSED', reason: 'AWAITING_APPROVAL' });
    const other = createAskLoop({ plugins: [bare()], store, pool });
    await expect(other.approve('s')).rejects.toMatchObject({ code: 'LOOP_TOOLS_MISSING', sid: 's', message: expect.stringContaining('(tool.test.Deploy): a plugin or an MCP server is missing here, or a server no longer lists a tool it added while the session ran. Nothing was recorded;') });
    expect(await store.lastTurn('s')).toMatchObject({ phase: 'awaiting-approval', approval: { state: 'pending' } });
    expect(await full.approve('s')).toMatchObject({ status: 'DONE', result: 'deployed prod' });
    await other.close();
    await full.close();
  });

  it('leaves a turn whose host died mid-program as it was, not noted interrupted; the host with them notes it once and runs it', async () => {
    const store = createMemoryTranscriptStore();
    const full = createAskLoop({ plugins: [testPlugin({ m: [reply] })], store, pool });
    await full.run({ agent, task: 'ship', sid: 's' });
    // What a host that died while the approved program ran leaves behind: the turn saved in phase `executing`.
    const paused = await store.lastTurn('s');
    const session = await store.getSession('s');
    await store.saveTurn({ ...paused!, phase: 'executing', approval: { ...paused!.approval!, state: 'approved', decidedAt: new Date().toISOString() } }, { ...session!, status: 'running' });
    const other = createAskLoop({ plugins: [bare()], store, pool });
    await expect(other.resume('s')).rejects.toMatchObject({ code: 'LOOP_TOOLS_MISSING' });
    await expect(other.resume('s')).rejects.toMatchObject({ code: 'LOOP_TOOLS_MISSING' });
    expect((await store.lastTurn('s'))?.interrupted).toBeUndefined();
    expect(await full.resume('s')).toMatchObject({ status: 'DONE', result: 'deployed prod' });
    expect((await store.lastTurn('s'))?.interrupted).toEqual([{ phase: 'executing', at: expect.any(String) }]);
    await other.close();
    await full.close();
  });

  it('leaves a turn it cannot continue as it was (an approval recorded by a host that then died); the host with them runs it', async () => {
    const store = createMemoryTranscriptStore();
    const full = createAskLoop({ plugins: [testPlugin({ m: [reply] })], store, pool });
    await full.run({ agent, task: 'ship', sid: 's' });
    const paused = await store.lastTurn('s');
    // What an approving host that died before it ran the turn leaves behind.
    const session = await store.getSession('s');
    await store.saveTurn({ ...paused!, phase: 'prepared', approval: { ...paused!.approval!, state: 'approved', decidedAt: new Date().toISOString() } }, { ...session!, status: 'running' });
    const other = createAskLoop({ plugins: [bare()], store, pool });
    await expect(other.resume('s')).rejects.toMatchObject({ code: 'LOOP_TOOLS_MISSING', message: expect.stringContaining('Nothing ran and nothing was saved;') });
    expect(await store.lastTurn('s')).toMatchObject({ phase: 'prepared', approval: { state: 'approved' } });
    expect(await full.resume('s')).toMatchObject({ status: 'DONE', result: 'deployed prod' });
    await other.close();
    await full.close();
  });
});
