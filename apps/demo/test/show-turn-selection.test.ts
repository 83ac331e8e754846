/**
 * `askloop show SID --turn N|N..M|N..|..M` and `--last N` print only the
 * turns asked for (text and `--json`); a selection that takes no turn, or a
 * malformed one, is a usage error that says what there is.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { parseTurnRange, selectTurns } from '../src/commands/turn-selection.ts';
import { captureIo } from './capture-io.ts';
import { seedSession, seedTurn, sessionsFileIn } from './view-seed.ts';
import { tempFolder } from './temp-folder.ts';

const dir = tempFolder('show-turn-selection');

/** The turn numbers `show` printed, from each turn's own emit ("turn N says hello"). */
function shownTurns(out: string): number[] {
  return [...out.matchAll(/turn (\d+) says hello/g)].map((match) => Number(match[1]));
}

describe('askloop show --turn and --last', () => {
  it('prints only the turns asked for, in order and once each, in text and JSON', async () => {
    const { db, store } = sessionsFileIn(dir);
    const sid = await seedSession(store, 'twelve-turns', { turns: 12 });
    await store.close();
    const show = async (...args: string[]) => {
      const io = captureIo({ cwd: dir });
      const code = await main(['show', sid, '--db', db, ...args], io);
      return { code, out: io.out, err: io.err };
    };
    expect(shownTurns((await show()).out)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(shownTurns((await show('--turn', '3')).out)).toEqual([3]);
    expect(shownTurns((await show('--turn', '3..5')).out)).toEqual([3, 4, 5]);
    expect(shownTurns((await show('--turn', '10..')).out)).toEqual([10, 11, 12]);
    expect(shownTurns((await show('--turn', '..2')).out)).toEqual([1, 2]);
    // Repeated and overlapping: each turn once, in the session's order.
    expect(shownTurns((await show('--turn', '9', '--turn', '2..3', '--turn', '3')).out)).toEqual([2, 3, 9]);
    expect(shownTurns((await show('--last', '2')).out)).toEqual([11, 12]);
    expect(shownTurns((await show('--last', '50')).out)).toHaveLength(12);
    // Both: the last N of the turns the ranges take.
    expect(shownTurns((await show('--turn', '..6', '--last', '2')).out)).toEqual([5, 6]);
    // The session's header still counts every turn.
    expect((await show('--turn', '4')).out).toContain('  turns    12 decided');
    const json = JSON.parse((await show('--turn', '7..8', '--json')).out) as { ok: boolean; session: { turns: number }; turns: { turnIndex: number }[] };
    expect(json.ok).toBe(true);
    expect(json.session.turns).toBe(12);
    expect(json.turns.map((turn) => turn.turnIndex)).toEqual([7, 8]);
  });

  it('refuses a malformed selection and one that takes no turn, saying what there is', async () => {
    const { db, store } = sessionsFileIn(dir, 'few.db');
    const sid = await seedSession(store, 'three-turns', { turns: 3 });
    const empty = await seedSession(store, 'no-turns-yet');
    await store.close();
    const refused = async (...args: string[]) => {
      const io = captureIo({ cwd: dir });
      expect(await main(['show', ...args, '--db', db], io)).toBe(2);
      return io.err;
    };
    expect(await refused(sid, '--turn', '7')).toContain('session three-turns has turns 1..3; --turn asks for none of them');
    expect(await refused(empty, '--last', '1')).toContain('session no-turns-yet has no turns yet; --last asks for none of them');
    for (const bad of ['0', 'x', '1..2..3', '..', '-1', '2.5', '']) expect(await refused(sid, `--turn=${bad}`)).toContain(`--turn takes a turn number or a range of them (3, 3..7, 40.., ..5; turns count from 1), got '${bad}'`);
    expect(await refused(sid, '--turn', '5..2')).toContain('--turn 5..2 ends before it starts; write the lower number first (2..5)');
    expect(await refused(sid, '--last', '0')).toContain("--last takes how many of the latest turns to print, a whole number from 1, got '0'");
    // With --json the refusal is JSON too.
    const io = captureIo({ cwd: dir });
    expect(await main(['show', sid, '--db', db, '--turn', '9', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out)).toMatchObject({ ok: false, error: { code: 'CLI_USAGE' } });
  });

  it('prints a tool call\'s long arguments and result whole with --full, as the viewer\'s cut note says it does', async () => {
    const { db, store } = sessionsFileIn(dir, 'long-call.db');
    const sid = await seedSession(store, 'long-call', { turns: 1 });
    const session = (await store.getSession(sid))!;
    const [args, result] = [`${'a'.repeat(5000)}ARGS-END`, `${'r'.repeat(40_000)}RESULT-END`];
    const turn = seedTurn(sid, 2);
    await store.saveTurn({ ...turn, toolCalls: [{ index: 0, name: 'tool.str.concat', displayName: 'tool.str.Concat', args: [args], result, durationMs: 1 }] }, { ...session, turns: 2 });
    await store.close();
    const show = async (...extra: string[]) => {
      const io = captureIo({ cwd: dir });
      expect(await main(['show', sid, '--db', db, '--turn', '2', ...extra], io)).toBe(0);
      return io.out;
    };
    const full = await show('--full');
    expect(full).toContain(`tool.str.Concat(${JSON.stringify(args)}) → ${JSON.stringify(result)}`);
    // Without it, cut to the width.
    const cut = await show();
    expect(cut).not.toContain('ARGS-END');
    expect(cut).not.toContain('RESULT-END');
  });

  it('reads ranges as whole turn numbers', () => {
    expect(parseTurnRange(' 4 ')).toEqual({ first: 4, last: 4 });
    expect(parseTurnRange('2..')).toEqual({ first: 2, last: Number.POSITIVE_INFINITY });
    expect(selectTurns([{ turnIndex: 1 }, { turnIndex: 2 }], {}, 's')).toEqual([{ turnIndex: 1 }, { turnIndex: 2 }]);
  });
});
