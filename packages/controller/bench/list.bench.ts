/**
 * `pnpm bench`: listing sessions from a SQLite file of 10,000 (1,000 with
 * `--quick`), as the viewer and the commands do. Baseline: what the viewer
 * did before the store took the filters, reading every session and matching
 * in memory. Tasks: the store's own query for a page (first and deep), a
 * search, the sessions whose id starts with 8 given characters, and counts
 * (all, and a search's matches). Each session carries 2 KB of USERDATA
 * besides its task.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUICK, runSuite } from '../../../scripts/bench-harness.ts';
import { createSqliteTranscriptStore, sessionMatchesList, type SessionRecord } from '../src/index.ts';

const SESSIONS = QUICK ? 1_000 : 10_000;
const PAGE = 500;
const directory = mkdtempSync(join(tmpdir(), 'askloop-list-bench-'));
const store = createSqliteTranscriptStore(join(directory, 'sessions.db'));
const agentDefinition = { name: 'researcher', model: 'openai:gpt-4o-mini', ceilings: { maxTurns: 12, tokens: 200_000 }, policy: { allow: ['tool.str.*', 'tool.fs.read*'], deny: [], grants: ['fs:read:/data/**'] } };
// USERDATA as a task may carry it: 2 KB of notes beside the subject, which a search must not have to read.
const notes = 'Notes on sources, dates and open questions. '.repeat(46);
const sids: string[] = [];
for (let index = 0; index < SESSIONS; index += 1) {
  const sid = crypto.randomUUID();
  sids.push(sid);
  // One session in a hundred is about invoices: the search below finds those.
  const subject = index % 100 === 7 ? `Summarise the Q${index % 4} invoices of customer ${index}` : `Research topic ${index}: the history of printing in city ${index % 97}`;
  const at = new Date(Date.UTC(2026, 10, 1) + index * 1000).toISOString();
  const session: SessionRecord = { sid, agent: index % 3 === 0 ? 'writer' : 'researcher', agentDefinition, userdata: { subject, fields: { lang: 'en', depth: index % 5, notes } }, status: index % 10 === 0 ? 'done' : 'running', createdAt: at, updatedAt: at, turns: index % 7 };
  void store.createSession(session);
}
await store.listSessions({ limit: 1 });

const prefix = (sids[SESSIONS / 2] as string).slice(0, 8);
let sink = 0;
await runSuite(
  `Listing sessions from a SQLite file of ${SESSIONS.toLocaleString('en-US')}: a page of ${PAGE}`,
  {
    name: 'baseline: read every session, search in memory (the viewer before)',
    run: async () => {
      const all = await store.listSessions();
      sink += all.filter((session) => sessionMatchesList(session, { search: 'INVOICES' })).slice(0, PAGE).length;
    },
  },
  [
    { name: 'listSessions: the newest page', run: async () => (sink += (await store.listSessions({ offset: 0, limit: PAGE + 1 })).length) },
    { name: `listSessions: the page at offset ${SESSIONS / 2}`, run: async () => (sink += (await store.listSessions({ offset: SESSIONS / 2, limit: PAGE + 1 })).length) },
    { name: 'listSessions: search "INVOICES" (1 in 100 match)', run: async () => (sink += (await store.listSessions({ search: 'INVOICES', offset: 0, limit: PAGE + 1 })).length) },
    { name: 'listSessions: ids starting with 8 given characters', run: async () => (sink += (await store.listSessions({ sidPrefix: prefix })).length) },
    { name: 'countSessions: every session (`askloop sessions --limit` read them all before)', run: async () => (sink += await store.countSessions()) },
    { name: 'countSessions: search "INVOICES"', run: async () => (sink += await store.countSessions({ search: 'INVOICES' })) },
  ],
  'controller.list-sessions',
);
await store.close();
rmSync(directory, { recursive: true, force: true });
if (sink < 0) console.log(sink);
