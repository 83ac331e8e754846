/**
 * The host the crash test kills: a plain Node 24 script (run with
 * `--no-node-snapshot --conditions=@askloop/source`) that runs one session on
 * a SQLite file with the test plugin. Its one scripted reply writes with
 * `tool.memory.CAS`, then spins until `/crash/stop` is set in memory — which
 * nobody does while this process lives, so the parent finds it mid-turn
 * (phase `executing`) and kills it with SIGKILL.
 *
 * Usage: node … test/crash-host.ts <database file> <sid>
 */
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import { CRASH_AGENT, CRASH_LEASE_MS, crashTurnReply } from './crash-session.ts';
import { testPlugin } from './test-plugin.ts';

const [file, sid] = process.argv.slice(2);
if (file === undefined || sid === undefined) throw new Error('usage: crash-host.ts <database file> <sid>');
// A short lease, so the resuming host does not wait the default 15 s for this one to lapse.
const loop = createAskLoop({ plugins: [testPlugin({ m: [crashTurnReply] })], store: createSqliteTranscriptStore(file), sessionLeaseMs: CRASH_LEASE_MS });
const result = await loop.run({ agent: CRASH_AGENT, task: 'crash me', sid });
// Reaching this line means the turn was never stuck: the parent test fails on it.
process.stdout.write(`${JSON.stringify(result)}\n`);
await loop.close();
