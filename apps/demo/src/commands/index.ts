/**
 * Every command the `askloop` executable knows: one line each. A command's
 * module is imported only when that command runs, so `askloop --help` and
 * `askloop envelope parse` never load the interpreter, isolated-vm or the
 * provider SDKs. Add a command by adding its line; a word before a space
 * (`envelope`) groups commands in the help.
 */
import type { CommandEntry } from '../io.ts';

/** The command table, in the order `askloop --help` lists it. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'run', summary: 'run an agent on a task through the controller (a real model, or --script replies)', load: async () => (await import('./run.ts')).runCommand },
  { name: 'worker', summary: 'take turns of queued sessions from a PostgreSQL store until stopped (any number of hosts)', load: async () => (await import('./worker.ts')).workerCommand },
  { name: 'resume', summary: 'continue a stored session (after Ctrl-C, a crash or a failed model call)', load: async () => (await import('./continue-session.ts')).resumeCommand },
  { name: 'approve', summary: 'approve the program a paused session waits on, and continue', load: async () => (await import('./continue-session.ts')).approveCommand },
  { name: 'deny', summary: 'deny the program a paused session waits on', load: async () => (await import('./continue-session.ts')).denyCommand },
  { name: 'replay', summary: 'replay a stored session from its records and report the first divergence', load: async () => (await import('./replay.ts')).replayCommand },
  { name: 'demo', summary: 'Plan → Apply through the controller with a scripted model (no API key, no network)', load: async () => (await import('./demo.ts')).demoCommand },
  { name: 'view', summary: 'serve a local web page showing stored sessions as a timeline (live while one runs)', load: async () => (await import('./view.ts')).viewCommand },
  { name: 'init', summary: 'write a commented askloop.config.yaml (agents, models, quotas, store, plugins)', load: async () => (await import('./init.ts')).initCommand },
  { name: 'sessions', summary: 'list stored sessions: id, task, agent, status, turns, when each last changed', load: async () => (await import('./sessions.ts')).sessionsCommand },
  { name: 'show', summary: 'print one stored session turn by turn (envelope, reply, program, tools, emits, decision)', load: async () => (await import('./show.ts')).showCommand },
  { name: 'envelope parse', summary: 'parse an AEIOU v4 envelope and print it as JSON', load: async () => (await import('./envelope/parse.ts')).parseCommand },
  { name: 'envelope compose', summary: 'write envelope text from the JSON that `parse` prints', load: async () => (await import('./envelope/compose.ts')).composeCommand },
  { name: 'envelope digest', summary: "print the progress digest of a turn's OUTPUT and SCRATCHPAD", load: async () => (await import('./envelope/digest.ts')).digestCommand },
  { name: 'envelope control', summary: "scan a turn's OUTPUT for loop control (DONE marker, or v1 signals)", load: async () => (await import('./envelope/control.ts')).controlCommand },
  { name: 'ns check', summary: 'parse and statically check NeuroScript files', load: async () => (await import('./ns/check.ts')).checkCommand },
  { name: 'ns run', summary: 'check and run NeuroScript files in the sandbox', load: async () => (await import('./ns/run.ts')).runCommand },
  { name: 'ns tools', summary: 'list the tools a program may call under the tool options, and whether the policy allows each', load: async () => (await import('./ns/tools.ts')).toolsCommand },
  { name: 'mcp serve', summary: 'serve NeuroScript run/check as an MCP server (stdio or loopback HTTP)', load: async () => (await import('./mcp/serve.ts')).serveCommand },
  { name: 'mcp tools', summary: 'list the tools of the MCP servers in a config file', load: async () => (await import('./mcp/tools.ts')).toolsCommand },
];

/** One-line descriptions of the command groups, for `askloop <group> --help`. */
export const GROUP_SUMMARIES: Readonly<Record<string, string>> = {
  envelope: 'parse, compose and inspect AEIOU v4 envelopes',
  ns: 'NeuroScript: parse, check and run scripts',
  mcp: "Model Context Protocol: serve AskLoop to MCP clients, list MCP servers' tools",
};
