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
  { name: 'demo', summary: 'run a two-turn agent session with a scripted model (no API key needed)', load: async () => (await import('./demo.ts')).demoCommand },
  { name: 'view', summary: 'serve a local web page showing stored sessions as a timeline (live while one runs)', load: async () => (await import('./view.ts')).viewCommand },
  { name: 'envelope parse', summary: 'parse an AEIOU v4 envelope and print it as JSON', load: async () => (await import('./envelope/parse.ts')).parseCommand },
  { name: 'envelope compose', summary: 'write envelope text from the JSON that `parse` prints', load: async () => (await import('./envelope/compose.ts')).composeCommand },
  { name: 'envelope digest', summary: "print the progress digest of a turn's OUTPUT and SCRATCHPAD", load: async () => (await import('./envelope/digest.ts')).digestCommand },
  { name: 'envelope control', summary: "scan a turn's OUTPUT for loop control (DONE marker, or v1 signals)", load: async () => (await import('./envelope/control.ts')).controlCommand },
  { name: 'ns check', summary: 'parse and statically check NeuroScript files', load: async () => (await import('./ns/check.ts')).checkCommand },
  { name: 'ns run', summary: 'check and run NeuroScript files in the sandbox', load: async () => (await import('./ns/run.ts')).runCommand },
  { name: 'mcp serve', summary: 'serve NeuroScript run/check as an MCP server (stdio or loopback HTTP)', load: async () => (await import('./mcp/serve.ts')).serveCommand },
  { name: 'mcp tools', summary: 'list the tools of the MCP servers in a config file', load: async () => (await import('./mcp/tools.ts')).toolsCommand },
];

/** One-line descriptions of the command groups, for `askloop <group> --help`. */
export const GROUP_SUMMARIES: Readonly<Record<string, string>> = {
  envelope: 'parse, compose and inspect AEIOU v4 envelopes',
  ns: 'NeuroScript: parse, check and run scripts',
  mcp: "Model Context Protocol: serve AskLoop to MCP clients, list MCP servers' tools",
};
