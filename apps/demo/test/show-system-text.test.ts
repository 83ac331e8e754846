/**
 * `askloop show SID --full` prints the system text the model got: the first
 * turn's whole, then for each later turn only its own tail (the budget line,
 * a repair note, how to fix the last error) while the agent's shared part
 * stays the same, and the whole text again when that part changed. Without
 * `--full`, one line with its size. Regression (reviewer playing the model):
 * only `--json` had it, so what the model was told could not be read.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';
import { tempFolder, writeFiles } from './temp-folder.ts';
import { seedSession, seedTurn, sessionsFileIn } from './view-seed.ts';

const dir = tempFolder('show-system');
writeFiles(dir, {
  // A syntax error fed back (a repair turn), a run-time error (the next turn says how to fix it), then DONE.
  'replies.json': JSON.stringify([envelope('let words = 3'), envelope('set n = 0', 'emit 10 / n'), envelope('emit "<<<LOOP:DONE>>> three"')]),
});

/** Runs `askloop ARGS` in `dir`, expecting exit 0; returns standard output. */
async function askloop(...args: string[]): Promise<string> {
  const io = captureIo({ cwd: dir });
  expect(await main(args, io), io.err).toBe(0);
  return io.out;
}

/** `text` as show prints a block: every line indented by four spaces (an empty one left empty). */
const indented = (text: string): string => text.split('\n').map((line) => `    ${line}`.trimEnd()).join('\n');

/** The lines of `out` from the heading of turn `index` up to the next turn's. */
function turnPart(out: string, index: number): string {
  const start = out.indexOf(`\nturn ${index}`);
  expect(start, out).toBeGreaterThanOrEqual(0);
  const end = out.indexOf('\nturn ', start + 1);
  return out.slice(start, end < 0 ? undefined : end);
}

describe('askloop show and the system text', () => {
  it('--full prints turn 1 whole, then each turn past the shared part; without --full only its size', async () => {
    const { sid } = JSON.parse(await askloop('run', 'count', '--script', 'replies.json', '--db', 'run.db', '--repair', '1', '--json')) as { sid: string };
    const { turns } = JSON.parse(await askloop('show', sid, '--db', 'run.db', '--json')) as { turns: { system: string }[] };
    const systems = turns.map((turn) => turn.system);
    const cut = systems[0]!.lastIndexOf('\n\nBudget: ');
    const shared = systems[0]!.slice(0, cut);
    expect(systems.every((system) => system.startsWith(`${shared}\n\nBudget: `))).toBe(true);

    const full = await askloop('show', sid, '--db', 'run.db', '--full');
    expect(turnPart(full, 1)).toContain(`  system   ${systems[0]!.length.toLocaleString('en-US')} chars sent\n${indented(systems[0]!)}\n  envelope `);
    const own = `the agent's shared part as in turn 1 (${cut.toLocaleString('en-US')} chars), then this turn's own:`;
    expect(turnPart(full, 2)).toContain(`  system   ${systems[1]!.length.toLocaleString('en-US')} chars sent · ${own}\n    Budget: turn 2 of 8.\n\n    Your previous ACTIONS failed before or while running;`);
    expect(turnPart(full, 3)).toContain(`  system   ${systems[2]!.length.toLocaleString('en-US')} chars sent · ${own}\n    Budget: turn 3 of 8.\n\n    How to fix SCRIPT_DIVISION_BY_ZERO (the SYSTEM_ERROR line in OUTPUT): Check the divisor first.\n  envelope `);
    // The shared part once: its last line (the tool catalogue's) appears in turn 1 only.
    const sharedLastLine = indented(shared.slice(shared.lastIndexOf('\n') + 1));
    expect(full.split(sharedLastLine)).toHaveLength(2);

    const short = await askloop('show', sid, '--db', 'run.db');
    for (const [index, system] of systems.entries()) expect(turnPart(short, index + 1)).toContain(`  system   ${system.length.toLocaleString('en-US')} chars sent (--full shows it)\n  envelope `);
    expect(short).not.toContain('Budget: turn');
  });

  it('--full prints the whole text again when the shared part changed (an MCP server listed other tools)', async () => {
    const { db, store } = sessionsFileIn(dir, 'seeded.db');
    const sid = await seedSession(store, 'catalogue-changed');
    const session = await store.getSession(sid);
    const texts = ['Rules.\n\ntool.a.One() -> string\n\nBudget: turn 1 of 4.', 'Rules.\n\ntool.a.One() -> string\ntool.a.Two() -> string\n\nBudget: turn 2 of 4.', 'Rules.\n\ntool.a.One() -> string\ntool.a.Two() -> string\n\nBudget: turn 3 of 4.'];
    for (const [at, system] of texts.entries()) await store.saveTurn({ ...seedTurn(sid, at + 1), system }, { ...session!, turns: at + 1 });
    await store.close();
    const full = await askloop('show', sid, '--db', db, '--full');
    expect(turnPart(full, 2)).toContain(`  system   ${texts[1]!.length} chars sent (its shared part differs from turn 1's)\n${indented(texts[1]!)}\n`);
    expect(turnPart(full, 3)).toContain(`  system   ${texts[2]!.length} chars sent · the agent's shared part as in turn 2 (${texts[2]!.lastIndexOf('\n\nBudget')} chars), then this turn's own:\n    Budget: turn 3 of 4.\n  envelope `);
  });
});
