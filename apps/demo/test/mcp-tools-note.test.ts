/**
 * `askloop mcp tools` notes when the tools the policy allows make a long
 * catalogue: every turn's system text carries it (a server with 2,000 tools
 * put a 1 MB text into each turn), so narrowing --allow saves tokens.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

const FIXTURE_SERVER = fileURLToPath(new URL('./fixtures/mcp-fixture-server.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'askloop-mcp-tools-note-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'many.json'), JSON.stringify({ servers: { many: { command: process.execPath, args: [FIXTURE_SERVER], env: { MANY_TOOLS: '150' } } } }));

describe('askloop mcp tools', () => {
  it('notes a catalogue of allowed tools long enough to weigh on every turn, and not a narrow one', async () => {
    const wide = captureIo({ cwd: dir });
    expect(await main(['mcp', 'tools', '--mcp-config', 'many.json', '--allow', 'tool.many.*', '--grant', 'mcp:call'], wide), wide.err).toBe(0);
    expect(wide.err).toMatch(/^askloop mcp tools: note: the 15\d tools the policy allows add [\d,]+ characters \(about [\d,]+ tokens\) to every turn's system text; allow only the tools an agent needs/m);
    const narrow = captureIo({ cwd: dir });
    expect(await main(['mcp', 'tools', '--mcp-config', 'many.json', '--allow', 'tool.many.tool_1', '--grant', 'mcp:call'], narrow)).toBe(0);
    expect(narrow.err).not.toContain('note:');
    // Tools the policy refuses are not in any turn's text: no note for them.
    const denied = captureIo({ cwd: dir });
    expect(await main(['mcp', 'tools', '--mcp-config', 'many.json'], denied)).toBe(0);
    expect(denied.err).not.toContain('note:');
  });
});
