/**
 * A run that ends cancels its pending tool calls: the call rejects with
 * `TOOL_CANCELLED` at once, the handler's signal fires, and no timer is left
 * to keep the process alive (regression: with --timeout-ms 1000 the CLI
 * printed its result at 1.4 s but exited at 10.9 s, when the tool's timer fired).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { isToolError, type ToolError } from '../errors/tool-error.ts';
import { defineToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';

/** A tool that never finishes and records whether its signal fired. */
function slowPack(seen: { aborted: boolean }) {
  return defineToolPack('slow', [
    defineTool({ name: 'tool.slow.Wait', description: 'Never finishes.', timeoutMs: 60_000 }, (_args, context) => {
      context.signal.addEventListener('abort', () => {
        seen.aborted = true;
      });
      return new Promise(() => undefined);
    }),
  ]);
}

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    if (isToolError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('cancelling tool calls when the run ends', () => {
  it('rejects a pending call with TOOL_CANCELLED when the host signal aborts, and aborts the handler signal', async () => {
    const seen = { aborted: false };
    const controller = new AbortController();
    const host = hostFor([slowPack(seen)], undefined, { signal: controller.signal });
    const pending = host.call('tool.slow.Wait', []);
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('run timed out'));
    const error = await rejection(pending);
    expect([error.code, error.message]).toEqual(['TOOL_CANCELLED', 'tool.slow.Wait was cancelled because the run ended: run timed out (pack slow)']);
    expect(seen.aborted).toBe(true);
    expect(host.log().at(-1)).toMatchObject({ outcome: 'error', code: 'TOOL_CANCELLED' });
  });

  it('cancels one call through its own signal, and does not start calls once the host signal has fired', async () => {
    const seen = { aborted: false };
    const controller = new AbortController();
    const host = hostFor([slowPack(seen)], undefined, { signal: controller.signal });
    const callController = new AbortController();
    const pending = host.call('tool.slow.Wait', [], { signal: callController.signal });
    callController.abort();
    expect((await rejection(pending)).code).toBe('TOOL_CANCELLED');
    controller.abort();
    expect((await host.fail('tool.slow.Wait', [])).message).toContain('was not started because the run ended');
  });

  it("cuts a call's timeout to the run's deadline", async () => {
    const seen = { aborted: false };
    const host = hostFor([slowPack(seen)], undefined, { deadline: 5 });
    const error = await host.fail('tool.slow.Wait', []);
    expect(error.code).toBe('TOOL_TIMEOUT');
    expect(seen.aborted).toBe(true);
  });

  it('bounds a call made with timeLeftMs by that plus deadlineGraceMs, not by the deadline taken at the run\'s start', async () => {
    const quick = defineToolPack('quick', [defineTool({ name: 'tool.quick.Wait', description: 'Finishes after 30 ms.', timeoutMs: 60_000 }, () => new Promise((resolve) => setTimeout(resolve, 30, 'done')))]);
    const seen = { aborted: false };
    // The run's deadline (epoch 5) has long passed — a stall the run did not count — but the run says time is left.
    const host = hostFor([quick, slowPack(seen)], undefined, { deadline: 5, deadlineGraceMs: 20 });
    expect((await host.fail('tool.quick.Wait', [])).code).toBe('TOOL_TIMEOUT');
    await expect(host.call('tool.quick.Wait', [], { timeLeftMs: 1_000 })).resolves.toBe('done');
    // And a call that outlasts what is left (plus the grace) is cut there.
    const started = performance.now();
    await expect(host.call('tool.slow.Wait', [], { timeLeftMs: 10 })).rejects.toMatchObject({ code: 'TOOL_TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(seen.aborted).toBe(true);
  });

  it('leaves no timer behind: a process whose run was cancelled exits at once', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'askloop-cancel-'));
    const here = path.dirname(fileURLToPath(import.meta.url));
    const script = path.join(directory, 'child.mjs');
    writeFileSync(
      script,
      `
import { createToolHost } from ${JSON.stringify(path.join(here, 'tool-host.ts'))};
import { createPolicy } from ${JSON.stringify(path.join(here, '../policy/policy.ts'))};
import { createToolRegistry } from ${JSON.stringify(path.join(here, '../registry/tool-registry.ts'))};
import { defineToolPack } from ${JSON.stringify(path.join(here, '../registry/tool-pack.ts'))};
import { defineTool } from ${JSON.stringify(path.join(here, '../spec/define-tool.ts'))};
const pack = defineToolPack('slow', [defineTool({ name: 'tool.slow.Wait', description: 'x', timeoutMs: 600000 }, () => new Promise(() => undefined))]);
const run = new AbortController();
const host = createToolHost({ registry: createToolRegistry([pack]), policy: createPolicy({ allow: ['**'] }), session: 's', turn: 1, signal: run.signal });
const pending = host.call('tool.slow.Wait', []).catch((error) => console.log(error.code));
setTimeout(() => run.abort(), 10);
await pending;
`,
    );
    try {
      const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      // Were the 600 s timer left running, the child would outlive this test's timeout.
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect([code, output.trim()]).toEqual([0, 'TOOL_CANCELLED']);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 20_000);
});
