/**
 * `neuroscript_run`'s tool host is bound to its run. Regression: the server
 * built the host without the run's signal, deadline or value-size limit, so a
 * tool call outlived a run that had timed out (in a server that keeps
 * running), and results were checked against the default limit, not the run's.
 */
import { closeDefaultPool } from '@askloop/interpreter';
import { createMemoryTools, createPolicy, createToolRegistry, defineTool, defineToolPack, openSqliteStore, TOOL_ERROR_CODES } from '@askloop/tools';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { checkNeuroScript, runNeuroScript, type NeuroScriptSetup } from './run-neuroscript.ts';

let aborted: (reason: unknown) => void = () => undefined;
const cancelled = new Promise<unknown>((resolve) => {
  aborted = resolve;
});

const pack = defineToolPack('slow', [
  defineTool({ name: 'tool.slow.Wait', description: 'Waits 10 s unless cancelled.', args: [], returns: 'string', timeoutMs: 60_000 }, (_args, context) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve('late'), 10_000);
      context.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        aborted(context.signal.reason);
        reject(new Error('cancelled'));
      });
    }),
  ),
  defineTool({ name: 'tool.slow.Big', description: 'A 200-character string.', args: [], returns: 'string' }, () => 'x'.repeat(200)),
  defineTool({ name: 'tool.slow.Brief', description: 'Answers after 50 ms.', args: [], returns: 'string' }, () => new Promise<string>((resolve) => setTimeout(() => resolve('brief'), 50))),
]);

function setup(limits: NeuroScriptSetup['limits']): NeuroScriptSetup {
  return { registry: createToolRegistry([pack]), policy: createPolicy({ allow: ['tool.slow.*'] }), session: 'test', limits };
}

afterAll(async () => {
  await closeDefaultPool();
});

describe('runNeuroScript binds the tool host to the run', () => {
  it('cancels a pending tool call when the run times out', async () => {
    const result = await runNeuroScript(setup({ wallMs: 300 }), { program: 'command\n  emit "before"\n  emit tool.slow.Wait()\nendcommand\n' }, 1);
    expect(result.error?.code).toBe('SCRIPT_TIMEOUT');
    expect(result.emits).toEqual(['before']);
    // Resolves only when the tool's signal fired (without the binding the call ran on for 10 s).
    await expect(cancelled).resolves.toBeDefined();
  });

  it("counts the tools' deadline from the run's start, not from before a wait for a busy pool", async () => {
    // The default pool's two workers are held by runaways for 2.5 s (their own wall clock), so the third run
    // waits longer than its 1 s wall clock plus the tools' 1 s grace before a worker takes it.
    const runaway = 'command\n  while true\n    set x = 1\n  endwhile\nendcommand\n';
    const busy = [3, 4].map((turn) => runNeuroScript(setup({ wallMs: 2_500, loopIterations: 1e12, fuel: 1e12 }), { program: runaway }, turn));
    const result = await runNeuroScript(setup({ wallMs: 1_000 }), { program: 'command\n  emit tool.slow.Brief()\nendcommand\n' }, 5);
    for (const each of await Promise.all(busy)) expect(each.error?.code).toBe('SCRIPT_TIMEOUT');
    expect(result.error).toBeNull();
    expect(result.emits).toEqual(['brief']);
  });

  it("refuses a tool result over the run's stringLength", async () => {
    const result = await runNeuroScript(setup({ stringLength: 100 }), { program: 'command\n  emit tool.slow.Big()\nendcommand\n' }, 2);
    expect(result.error?.message).toContain('TOOL_RESULT_TOO_LARGE');
    // The tool host's code under SCRIPT_TOOL_ERROR, for the client's report.
    expect(result.errorCause).toEqual({ code: 'TOOL_RESULT_TOO_LARGE', fix: TOOL_ERROR_CODES.TOOL_RESULT_TOO_LARGE.fix });
  });
});

describe('a tool that needs approval, in a program a client sends', () => {
  it('is refused by the check (no one here can approve it), and never runs; the check alone says the same', async () => {
    let ran = 0;
    const gated = defineToolPack('mail', [
      defineTool({ name: 'tool.mail.Send', description: 'Sends mail; needs a person to approve.', args: [], returns: 'string', effect: 'external', requiresApproval: true }, () => {
        ran += 1;
        return 'sent';
      }),
    ]);
    const gatedSetup: NeuroScriptSetup = { registry: createToolRegistry([gated]), policy: createPolicy({ allow: ['tool.mail.*'] }), session: 'test' };
    const result = await runNeuroScript(gatedSetup, { program: 'command\n  emit tool.mail.Send()\nendcommand\n' }, 1);
    expect(result).toMatchObject({ ok: false, error: { code: 'SCRIPT_TOOL_DENIED', message: expect.stringContaining("(POLICY_APPROVAL_UNAVAILABLE): tool.mail.Send needs a person's approval before it runs, and a program an MCP client sends has no one to ask") } });
    expect(ran).toBe(0);
    const diagnostics = await checkNeuroScript(gatedSetup, { program: 'command\n  emit tool.mail.Send()\nendcommand\n' });
    expect(diagnostics).toMatchObject([{ code: 'SCRIPT_TOOL_DENIED' }]);
  });
});

describe('checkNeuroScript knows the names neuroscript_run binds', () => {
  it('warns about a read the run would refuse, and refuses what the run would, userdata bound only when sent', async () => {
    const typo = 'command\n  set total = 3\n  emit "sum " + totl\nendcommand\n';
    expect(await checkNeuroScript(setup(undefined), { program: typo })).toMatchObject([{ code: 'SCRIPT_VARIABLE_UNSET', severity: 'warning', message: expect.stringContaining("did you mean 'total'?") }]);
    expect(await runNeuroScript(setup(undefined), { program: typo }, 1)).toMatchObject({ ok: false, error: { code: 'SCRIPT_VARIABLE_UNSET' } });
    const keyed = 'command\n  emit {name: userdata["name"]}\nendcommand\n';
    expect(await checkNeuroScript(setup(undefined), { program: keyed, userdata: { name: 'Ada' } })).toMatchObject([{ code: 'SCRIPT_MAP_KEY_UNSET' }]);
    expect(await checkNeuroScript(setup(undefined), { program: 'command\n  set userdata = 1\nendcommand\n', userdata: {} })).toMatchObject([{ code: 'SCRIPT_GLOBAL_READ_ONLY' }]);
    expect(await checkNeuroScript(setup(undefined), { program: 'command\n  emit userdata\nendcommand\n' })).toMatchObject([{ code: 'SCRIPT_VARIABLE_UNSET' }]);
  });
});

describe('a write in a program a client sends', () => {
  it('acts on the memory store and leaves no idempotence record (no run here ever runs again)', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'askloop-mcp-stores-'));
    const stores = openSqliteStore(join(directory, 'tools.sqlite'));
    try {
      const written: NeuroScriptSetup = {
        registry: createToolRegistry([createMemoryTools()]),
        policy: createPolicy({ allow: ['tool.memory.*'], grants: ['memory:*'] }),
        session: 'mcp-test',
        stores,
      };
      const program = 'command\n  set found = tool.memory.Get("/k")\n  emit tool.memory.CAS("/k", found[1], "v" + found[1])\nendcommand\n';
      for (const turn of [1, 2]) expect((await runNeuroScript(written, { program }, turn)).error).toBeNull();
      expect(await stores.memory.get('/k')).toEqual({ value: 'v1', version: 2 });
      const records = new DatabaseSync(stores.file).prepare('SELECT count(*) AS n FROM idempotence').get() as { n: number };
      expect(records.n).toBe(0);
    } finally {
      stores.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
