/**
 * `askloop run "<task>" [agent options] [--script FILE] [--db FILE|postgres://…] [--fs-root DIR] [--detach] [--json]`:
 * one agent session through the controller, stored in the sessions file or
 * on PostgreSQL; `--detach` only queues it for `askloop worker`.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { usageError } from '../cli-error.ts';
import { configForRun } from '../config/config-for-run.ts';
import { locateModelError } from '../config/model-place.ts';
import { atStorePlace, locateStoreError } from '../config/store-place.ts';
import type { Command } from '../io.ts';
import { AGENT_OPTIONS, AGENT_OPTIONS_USAGE, agentFromOptions } from '../loop/agent-options.ts';
import { forgetContinueWith, saveContinueWith } from '../loop/continue-record.ts';
import { continueArgs } from '../loop/continue-hint.ts';
import { DETACH_NEEDS_POSTGRES, detachSession } from '../loop/detach-session.ts';
import { driveSession } from '../loop/drive-session.ts';
import { LOOP_EXIT_USAGE, SESSION_OPTIONS, SESSION_OPTIONS_USAGE } from '../loop/session-options.ts';
import { openPostgresSessionStore } from '../loop/open-postgres-store.ts';
import { openSessionLoop, openSessionStore } from '../loop/open-session-loop.ts';
import { readScript } from '../loop/read-script.ts';
import { resolveStoreLocation } from '../loop/store-location.ts';
import { allowPatternWarnings, denyPatternWarnings, hostToolNames } from '../options/allow-pattern-warnings.ts';
import { directoryOption } from '../options/parse-options.ts';
import { followKnownSecretNames, knownSecretNames } from '../known-secret-names.ts';
import { refuseHeldKey } from '../redact-secrets.ts';
import { MCP_CONFIG_OPTION, MCP_CONFIG_USAGE, mcpConfigPlugins } from './mcp/load-mcp-config.ts';

/** `askloop run`. */
export const runCommand: Command = {
  usage: `Usage: askloop run "<task>" [--agent FILE|NAME] [--model PROVIDER:MODEL] [--script FILE]
                   [--db FILE] [--config FILE] [--max-turns N] [--no-tool-loop] [--dialect v4|v1]
                   [--repair N] [--allow GLOB]… [--deny GLOB]… [--grant CAP]…
                   [--fs-root DIR] [--mcp-config FILE] [--detach] [--quiet] [--json]

Runs an agent on the task until it finishes (DONE), the host stops it (HALT),
or a program waits for a person's approval (PAUSED). The task becomes
USERDATA's "subject". Each turn the model writes one NeuroScript program; the
host checks the whole program against the agent's policy before any of it
runs, runs it in a fresh sandbox, and decides. The session is stored, so it
can be resumed, approved, denied or replayed by its id.

Options:
${AGENT_OPTIONS_USAGE}
  --script FILE     use a scripted model instead of a real one: FILE is a JSON
                    array of strings, one whole reply per turn; when they run
                    out the loop halts with ERR_PROVIDER.
${SESSION_OPTIONS_USAGE}
${MCP_CONFIG_USAGE}
                    The agent's policy allows them (--allow, --grant).
  --detach          with --db postgres://…: create the session, queue it for
                    \`askloop worker\` and print its id at once (nothing runs
                    here; a worker serving --script sessions needs --script).

Output: the final result on standard output, one line per turn on standard
error. With --json, exactly one object:
  {"status":"DONE"|"HALT"|"PAUSED","reason":null|"ERR_…"|"AWAITING_APPROVAL",
   "result":"…"|null,"turns":N,"sid":"…",
   "decisions":[{"turn":N,"decision":"CONTINUE"|"DONE"|"HALT"|"PAUSE","reason":…|null}],
   "message":"…" and "failure":{"code","kind","message"} when the loop stopped
   with them (why a HALT or PAUSE happened; the last turn's failure)}
(an error that stops the loop from starting is {"ok":false,"error":{…}}).

${LOOP_EXIT_USAGE}
`,
  jsonErrors: (args) => args.includes('--json'),
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: { ...AGENT_OPTIONS, ...SESSION_OPTIONS, ...MCP_CONFIG_OPTION, script: { type: 'string' }, detach: { type: 'boolean' } }, allowPositionals: true, strict: true });
    if (positionals.length === 0) throw usageError('askloop run needs a task: askloop run "<task>" --model PROVIDER:MODEL');
    // An argument starting with '-' among them came after '--', which ends the options: folding them into the task
    // (`askloop run "-dash task --script f"`) would be no fix.
    if (positionals.length > 1 && args.includes('--') && positionals.slice(1).some((arg) => arg.startsWith('-'))) throw usageError(`askloop run takes one task, and every argument after '--' is part of it: put the options before '--' (askloop run [options] -- "${positionals[0]}")`);
    if (positionals.length > 1) throw usageError(`askloop run takes one task; quote it: askloop run "${positionals.join(' ')}"`);
    const task = positionals[0]!;
    // Most often an unset variable (`askloop run "$TASK"`): a model given nothing to do only spends turns.
    if (task.trim() === '') throw usageError('the task is empty: say what the agent should do, askloop run "<task>"');
    const fsRoot = directoryOption('fs-root', values['fs-root'], io.cwd);
    // The config in use (--config, else ./askloop.config.yaml) gives --agent NAME, its plugins and its store.
    const config = await configForRun({ config: values.config, agent: values.agent }, io);
    const agent = await agentFromOptions(values, values.script !== undefined, io, config.agent, config.defaults, config.plugins);
    const replies = values.script === undefined ? [] : await readScript(values.script, io);
    const plugins = [...config.plugins, ...(await mcpConfigPlugins(values['mcp-config'], io))];
    // Once the files are read, before anything is stored or sent: a variable they hand to an MCP server or a plugin (`${NAME}` in env or headers, `tokenEnv:`) holds a key too.
    refuseHeldKey(task, io.env, 'the task', 'leave the key out of the task (a tool or provider reads it from the environment)', knownSecretNames(io));
    // A pattern that allows nothing (a typo, tool.fs.* without --fs-root) is valid, so the run goes on: said, not refused.
    const hostTools = hostToolNames(plugins, io.cwd, fsRoot);
    for (const warning of [...allowPatternWarnings(agent.policy?.allow ?? [], hostTools), ...denyPatternWarnings(agent.policy?.deny ?? [], hostTools)]) io.stderr(`askloop: warning: ${warning}\n`);
    const location = resolveStoreLocation(values.db, config, io);
    // The config's store, when it is the one used: a store that cannot be opened is reported at its line.
    const storePlace = values.db === undefined ? config.storePlace : undefined;
    if (values.detach === true && location.kind !== 'postgres') throw locateStoreError(usageError(DETACH_NEEDS_POSTGRES), storePlace);
    // A worker runs the session with its own options: these would otherwise be taken and do nothing.
    if (values.detach === true) {
      // A worker has --fs-root but no --mcp-config: its MCP servers come from a config file's mcpServers:.
      const howTo = { '--fs-root': 'start them with --fs-root DIR', '--mcp-config': "define the servers under mcpServers: in a config file and start them with --config FILE" } as const;
      for (const [option, given] of [['--fs-root', fsRoot], ['--mcp-config', values['mcp-config']]] as const) {
        if (given !== undefined) io.stderr(`askloop: warning: ${option} is not passed to the workers, which run the session with their own options: ${howTo[option]} (a worker without the tools the agent allows leaves the session to one that has them)\n`);
      }
    }
    const { store, pool } = await atStorePlace(storePlace, async () => (location.kind === 'postgres' ? await openPostgresSessionStore(location.url) : { store: openSessionStore(location.path, storePlace?.field), pool: undefined }));
    const { loop } = openSessionLoop({ store, fsRoot, scripts: { script: replies }, plugins, providers: config.providers, http: config.http, env: io.env, secretNames: followKnownSecretNames(io) });
    // `resume --detach` queues it again: its --db (password hidden) and --config, which find the store.
    if (values.detach === true && pool !== undefined) return detachSession(io, loop, pool, { agent, task }, { json: values.json === true, db: continueArgs({ db: values.db, config: config.file }, io.cwd).text, worker: continueArgs({ db: values.db, config: config.file, script: values.script, fsRoot }, io.cwd) });
    // What `resume`, `approve` and `deny` need again to run this session as it ran (printed with the next steps).
    const continueWith = { db: values.db, config: config.file, script: values.script, fsRoot, mcpConfig: values['mcp-config'] };
    // Kept with the session, so `resume SID --db FILE` alone can print complete next steps: recorded before the loop
    // starts (the store holds no transaction open yet), so a host killed mid-run leaves them too; again after it.
    const sid = location.kind === 'sqlite' ? randomUUID() : undefined;
    if (sid !== undefined && location.kind === 'sqlite') saveContinueWith(location.path, sid, continueWith, io.cwd);
    const afterLoop = location.kind === 'sqlite' ? (id: string, ran: boolean) => (ran ? saveContinueWith(location.path, id, continueWith, io.cwd) : forgetContinueWith(location.path, id)) : undefined;
    // A model of the config file whose provider no plugin registers is reported at its line.
    const place = values.model === undefined && values.script === undefined ? config.modelPlace : undefined;
    try {
      return await driveSession(io, loop, { kind: 'run', agent, task, ...(sid === undefined ? {} : { sid }) }, { json: values.json === true, quiet: values.quiet === true, storedIn: location.kind === 'sqlite' ? location.path : 'PostgreSQL', ...(location.kind === 'sqlite' ? { sqliteFile: { path: location.path, name: storePlace?.field } } : {}), continueWith, ...(afterLoop === undefined ? {} : { afterLoop }) });
    } catch (error) {
      throw locateModelError(error, place, agent.name);
    }
  },
};
