/**
 * A paused run names the turn it paused at, as the progress line does
 * ("turn 1: PAUSE …"), for a program held for approval and for a v1 `await`
 * alike; `turns` in the JSON stays the decided turns (a held turn is decided
 * once its program runs), as the controller documents it.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { formatSummary } from '../src/progress/format-summary.ts';
import { terminalColors } from '../src/progress/terminal-colors.ts';
import { captureIo } from './capture-io.ts';

const PLUGIN = fileURLToPath(new URL('./fixtures/plugin-project/askloop-plugin-gated', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'askloop-pause-turn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'node_modules'));
symlinkSync(PLUGIN, join(dir, 'node_modules', 'askloop-plugin-gated'), 'dir');
writeFileSync(join(dir, 'askloop.config.yaml'), 'plugins: [askloop-plugin-gated]\nagents:\n  launcher: { model: "gated:launch", policy: { allow: ["tool.gated.*"] } }\n  waiter: { model: "gated:wait", dialect: v1 }\n');

describe('a pause names its turn', () => {
  it.each([
    ['launcher', 'AWAITING_APPROVAL', 'at turn 1, before its program ran', 0],
    ['waiter', 'V1_AWAIT', 'at turn 1', 1],
  ])('%s: %s', async (agent, reason, where, turns) => {
    const text = captureIo({ cwd: dir });
    expect(await main(['run', 'go', '--agent', agent, '--db', 's.db'], text)).toBe(4);
    expect(text.err).toContain(`turn 1: PAUSE ${reason}`);
    expect(text.err).toMatch(new RegExp(`askloop: PAUSED \\(${reason}\\) ${where}: session `));
    expect(text.err).not.toContain('after 0 turns');
    const json = captureIo({ cwd: dir });
    expect(await main(['run', 'go', '--agent', agent, '--db', 's.db', '--json'], json)).toBe(4);
    const result = JSON.parse(json.out);
    expect(result).toMatchObject({ status: 'PAUSED', reason, turns, decisions: [{ turn: 1, decision: 'PAUSE', reason }] });
    // The terminal summary says which turn waits when none is counted yet.
    const usage = { inputTokens: 0, outputTokens: 0, costUsd: 0, fuel: 0, toolCalls: 0, wallMs: 0 };
    const summary = formatSummary({ ...result, usage }, { colors: terminalColors(false), width: 200, nextSteps: false });
    if (reason === 'AWAITING_APPROVAL') expect(summary).toContain('0 turns (turn 1 waits for approval)');
    else expect(summary).toContain('1 turn');
  });
});
