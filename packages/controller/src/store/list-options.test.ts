/**
 * The list filters mean the same in the memory store (`sessionMatchesList`)
 * and in SQLite's queries (`sqlite-session-list.ts`), listing and counting: random sessions and
 * options over an alphabet made to tell them apart (ASCII and non-ASCII
 * letters in both cases, LIKE's wildcards, quotes, backslashes, a character
 * outside the Basic Multilingual Plane, U+FFFD; in tasks also U+0000, lone
 * surrogates and text that looks like a JSON escape; in agents' names lone
 * surrogates, which a database keeps as U+FFFD).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleSession } from '../testing/transcript-fixtures.ts';
import { foldAsciiCase, searchableText } from './list-options.ts';
import { createMemoryTranscriptStore } from './memory-transcript-store.ts';
import { prefixEnd } from './sqlite-session-list.ts';
import { createSqliteTranscriptStore } from './sqlite-transcript-store.ts';
import type { ListSessionsOptions, SessionStatus } from './transcript-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-list-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const letters = ['a', 'A', 'b', 'É', 'é', '%', '_', '\\', '"', '-', '🚀', ' ', '1', '\uFFFD', 'u0000'];
/** What only a task may hold: U+0000, lone surrogates, text that looks like a JSON escape. */
const taskOnly = ['\u0000', '\ud800', '\udc00', '\\u0000', '\\ud800'];
const text = (minLength: number, maxLength: number, extra: readonly string[] = []) =>
  fc.array(fc.constantFrom(...letters, ...extra), { minLength, maxLength }).map((chars) => chars.join(''));
const statuses: SessionStatus[] = ['running', 'paused', 'done', 'halted'];

const sessionsArbitrary = fc.uniqueArray(
  fc.record({
    sid: text(1, 6),
    agent: text(1, 4, ['\ud800', '\udc00']),
    subject: fc.oneof(text(0, 6, taskOnly), fc.integer({ min: 0, max: 1111 }), fc.constant(undefined)),
    status: fc.constantFrom(...statuses),
    parent: fc.boolean(),
  }),
  { selector: (session) => session.sid, minLength: 5, maxLength: 25 },
);

/** A piece of one of `texts` (whole characters), or any text: most searches and prefixes then find something. */
const pieceOf = (texts: string[], fromStart: boolean) =>
  texts.length === 0
    ? text(1, 3)
    : fc.oneof(
        fc.constantFrom(...texts).chain((whole) => {
          const chars = [...whole];
          return fc.tuple(fc.nat(fromStart ? 0 : chars.length), fc.integer({ min: 1, max: Math.max(1, chars.length) })).map(([start, length]) => chars.slice(start, start + length).join('') || 'a');
        }),
        text(1, 3),
      );

/** Present one time in three: several filters at once mostly find nothing. */
const sometimes = <T,>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary, weight: 1 });

const optionsArbitrary = (sessions: { sid: string; agent: string; subject: unknown }[]): fc.Arbitrary<ListSessionsOptions> =>
  fc.record({
    status: sometimes(fc.constantFrom(...statuses)),
    parentSid: sometimes(fc.constant('root')),
    sidPrefix: sometimes(pieceOf(sessions.map((session) => session.sid), true)),
    search: sometimes(fc.oneof(pieceOf(sessions.flatMap((session) => [session.sid, searchableText(session.agent), typeof session.subject === 'string' ? searchableText(session.subject) : String(session.subject ?? 'x')]), false).map(foldCaseRandomly), text(0, 3))),
    offset: sometimes(fc.nat(3)),
    limit: sometimes(fc.integer({ min: 0, max: 30 })),
  });

/** Upper-cases the text's ASCII letters or not: the search must find both. */
function foldCaseRandomly(value: string): string {
  return value.length % 2 === 0 ? value.toUpperCase().replace(/[^\x00-\x7f]/g, (char) => char.toLowerCase()) : value;
}

describe('listSessions filters', () => {
  it('mean the same in the memory store and in SQLite, and each count is the number of matches', async () => {
    let found = 0;
    await fc.assert(
      fc.asyncProperty(sessionsArbitrary.chain((sessions) => fc.tuple(fc.constant(sessions), fc.array(optionsArbitrary(sessions), { minLength: 1, maxLength: 8 }))), async ([sessions, optionsList]) => {
        const memory = createMemoryTranscriptStore();
        const sqlite = createSqliteTranscriptStore(join(dir, `list-${++files}.db`));
        try {
          for (const [index, session] of sessions.entries()) {
            const record = sampleSession(session.sid, {
              agent: session.agent,
              userdata: session.subject === undefined ? { fields: {} } : { subject: session.subject },
              status: session.status,
              createdAt: new Date(Date.UTC(2026, 0, 1) + (index % 4) * 1000).toISOString(),
              ...(session.parent ? { parentSid: 'root' } : {}),
            });
            await memory.createSession(record);
            await sqlite.createSession(record);
          }
          for (const options of optionsList) {
            const sids = async (store: typeof memory) => (await store.listSessions(options)).map((session) => session.sid);
            const listed = await sids(memory);
            found += listed.length;
            expect(await sids(sqlite), JSON.stringify(options)).toEqual(listed);
            // A count of the same filter is the number of every match, whatever page the options asked for.
            const { offset: _offset, limit: _limit, ...filter } = options;
            const matching = (await memory.listSessions(filter)).length;
            expect(await memory.countSessions?.(filter), `memory count ${JSON.stringify(filter)}`).toBe(matching);
            expect(await sqlite.countSessions(filter), `SQLite count ${JSON.stringify(filter)}`).toBe(matching);
          }
        } finally {
          await memory.close();
          await sqlite.close();
        }
      }),
      { numRuns: 150 },
    );
    // The options found sessions, not only empty lists.
    expect(found).toBeGreaterThan(200);
  });
});

describe('foldAsciiCase', () => {
  it('lower-cases A–Z only', () => {
    expect(foldAsciiCase('ÉCOLE École ABC xyz İ Σ')).toBe('École École abc xyz İ Σ');
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (value) => foldAsciiCase(value).length === value.length && foldAsciiCase(foldAsciiCase(value)) === foldAsciiCase(value) && !/[A-Z]/.test(foldAsciiCase(value))));
  });
});

describe('prefixEnd (the end of the SQLite sid range for a prefix)', () => {
  it('is above every text that starts with the prefix and at or below every later text', () => {
    expect(prefixEnd('ab')).toBe('ac');
    expect(prefixEnd('a\uD7FF')).toBe('a\uE000');
    expect(prefixEnd('a\u{10FFFF}')).toBe('b');
    expect(prefixEnd('\u{10FFFF}\u{10FFFF}')).toBeUndefined();
    const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }), fc.string({ unit: 'grapheme', maxLength: 4 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }), (prefix, rest, other) => {
        const end = prefixEnd(prefix);
        if (end === undefined) return;
        // Every text with the prefix sorts before the end; a text from the prefix up that sorts before the end has it.
        expect(byCodePoint(prefix + rest, end)).toBeLessThan(0);
        if (byCodePoint(other, prefix) >= 0 && byCodePoint(other, end) < 0) expect(other.startsWith(prefix)).toBe(true);
      }),
    );
  });
});

describe('sidPrefix on a UTF-16 SQLite database (a connection made elsewhere)', () => {
  it('finds the ids the memory store finds, where a byte range would not', async () => {
    const database = new DatabaseSync(join(dir, `utf16-${++files}.db`));
    database.exec("PRAGMA encoding = 'UTF-16le'");
    const sqlite = createSqliteTranscriptStore(database);
    const memory = createMemoryTranscriptStore();
    try {
      for (const sid of ['aÿ-1', 'aǿ-2', 'a\uFFFD-3', 'a\uD7FF-4', 'a😀-5', 'b-6']) {
        await sqlite.createSession(sampleSession(sid));
        await memory.createSession(sampleSession(sid));
      }
      for (const sidPrefix of ['aÿ', 'aǿ', 'a\uFFFD', 'a\uD7FF', 'a😀', 'a']) {
        const sids = async (store: typeof memory) => (await store.listSessions({ sidPrefix })).map((session) => session.sid).sort();
        expect(await sids(sqlite), sidPrefix).toEqual(await sids(memory));
      }
    } finally {
      await sqlite.close();
      database.close();
    }
  });
});
