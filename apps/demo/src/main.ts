import { CliError, usageError } from './cli-error.ts';
import { COMMANDS, GROUP_SUMMARIES } from './commands/index.ts';
import type { Command, CommandEntry, CommandIo, ExitCode } from './io.ts';
import { closestName } from './options/closest-name.ts';
import { terminalSafe } from './progress/terminal-safe.ts';
import { knownSecretNames } from './known-secret-names.ts';
import { createSecretRedactor } from './redact-secrets.ts';

const PROGRAM = 'askloop';

/** Codes printed with a hint to the command's `--help`. */
const USAGE_CODES = new Set(['CLI_USAGE', 'CLI_OPTION_INVALID', 'CLI_STDIN_IS_TERMINAL']);

/** Text of `askloop --help`. */
export function topLevelHelp(): string {
  const lines = [
    `${PROGRAM} — run LLM agents that act by writing NeuroScript, in a host-controlled AEIOU v4 loop.`,
    '',
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...COMMANDS.map((entry) => `  ${entry.name.padEnd(22)}${entry.summary}`),
    '',
    `Run '${PROGRAM} <command> --help' for a command's options.`,
    '',
  ];
  return lines.join('\n');
}

function groupHelp(group: string): string {
  const lines = [`${PROGRAM} ${group} — ${GROUP_SUMMARIES[group] ?? ''}`, '', `Usage: ${PROGRAM} ${group} <command> [options]`, '', 'Commands:'];
  for (const entry of COMMANDS.filter((candidate) => candidate.name.startsWith(`${group} `))) {
    lines.push(`  ${entry.name.slice(group.length + 1).padEnd(12)}${entry.summary}`);
  }
  lines.push('', `Run '${PROGRAM} ${group} <command> --help' for details.`, '');
  return lines.join('\n');
}

/** Prints one wrong thing and where to look, never the whole help. */
function usageFailure(io: CommandIo, message: string, helpFor: string): 2 {
  io.stderr(`${PROGRAM}: ${message} (CLI_USAGE)\nRun '${PROGRAM} ${helpFor}--help' for usage.\n`);
  return 2;
}

/** Turns whatever a command threw into a `CliError`; anything unknown is a bug and is rethrown. */
function asCliError(error: unknown, usage: string, name: string): CliError {
  if (error instanceof CliError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  // node:util parseArgs: an unknown option, a missing value, an unexpected positional.
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
    const message = (error as Error).message;
    // A value starting with '-' after an option (`--search -foo`): Node's three lines say to write it `--search=-foo`.
    const ambiguous = /^Option '(--[^']+)' argument is ambiguous/.exec(message)?.[1];
    if (ambiguous !== undefined) return usageError(`${ambiguous}: its value starts with '-', which reads as another option; write it as ${ambiguous}=VALUE`);
    // Node's words for these name its own notation (`Option '--db <value>' argument missing`): ours name the command's.
    const valueMissing = /^Option '(--[^' ]+) <value>' argument missing/.exec(message)?.[1];
    if (valueMissing !== undefined) return usageError(`${valueMissing} needs a value: ${valueMissing} ${valuePlaceholder(valueMissing, usage)}`);
    const valueGiven = /^Option '(--[^' ]+)' does not take an argument/.exec(message)?.[1];
    if (valueGiven !== undefined) return usageError(`${valueGiven} takes no value: write ${valueGiven} alone`);
    const positional = /^Unexpected argument '([^']*)'/.exec(message)?.[1];
    if (positional !== undefined) return usageError(`unexpected argument '${positional}': askloop ${name} takes options only (an option's value goes right after it)`);
    const typed = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '(--?[^'=]+)/.exec(message)?.[1] : undefined;
    // The options a command takes are the ones its usage text names.
    const named = new Set(usage.match(/--[a-z][a-z0-9-]*/g) ?? []);
    if (typed === undefined) return usageError(message);
    // A usage text may name an option the command does not take, to say why (`replay` asks no model: no --script);
    // suggesting it back ("unknown option '--script'; did you mean '--script'?") helped no one.
    if (named.has(typed)) return usageError(`unknown option '${typed}': this command does not take it`);
    const meant = closestName(typed, named);
    // In our words: Node's own message reads as if a positional argument were the likely mistake.
    return usageError(meant === undefined ? `unknown option '${typed}' (an argument that starts with '-' goes after '--')` : `unknown option '${typed}'; did you mean '${meant}'?`);
  }
  throw error;
}

/** What `option` takes, as the command's usage text names it (`FILE` of `--db FILE`), else `VALUE`. */
function valuePlaceholder(option: string, usage: string): string {
  return new RegExp(`${option}[ =]([A-Z][A-Za-z0-9_:|.…]*)`).exec(usage)?.[1] ?? 'VALUE';
}

/**
 * `--limit -1` as `--limit=-1`: a negative number after a long option is its
 * value, so the option's own check refuses it with its range
 * (`CLI_OPTION_INVALID`), as it refuses `--limit=-1`, rather than Node's
 * parser reading it as an option (three lines about an ambiguous argument).
 */
function negativeValuesJoined(args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    const next = args[index + 1];
    if (arg === '--') return [...joined, ...args.slice(index)];
    if (/^--[a-z][a-z0-9-]*$/.test(arg) && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      index += 1;
    } else joined.push(arg);
  }
  return joined;
}

/** Prints a failure: the JSON envelope on standard output in JSON mode, else one line on standard error. */
function report(io: CommandIo, entry: CommandEntry, error: CliError, json: boolean): ExitCode {
  // A message may quote a plugin's error or a tool's, which may hold a key of the environment (or of a variable the
  // config the command read hands to an MCP server or a plugin): never printed.
  const redact = createSecretRedactor(io.env, knownSecretNames(io));
  if (json) io.stdout(`${JSON.stringify({ ok: false, error: redact(error.toJSON()) })}\n`);
  else {
    const where = error.file === undefined ? '' : `${[error.file, error.line, error.column].filter((part) => part !== undefined).join(':')}: `;
    // A message may quote a model, a server or a file: never raw control characters on a terminal or in a log.
    // Every line ends with its code, CLI_ ones too: the README's error table is looked up by it.
    io.stderr(`${PROGRAM}: ${terminalSafe(redact(`${where}${error.message}`) as string)} (${error.code})\n`);
  }
  if (USAGE_CODES.has(error.code)) io.stderr(`Run '${PROGRAM} ${entry.name} --help' for usage.\n`);
  return error.exitCode;
}

async function runEntry(entry: CommandEntry, args: string[], io: CommandIo): Promise<ExitCode> {
  const command: Command = await entry.load();
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${command.usage.trimEnd()}\n`);
    return 0;
  }
  const json = command.jsonErrors?.(args) ?? false;
  try {
    return await command.run(negativeValuesJoined(args), io);
  } catch (error) {
    return report(io, entry, asCliError(error, command.usage, entry.name), json);
  }
}

/**
 * Runs `askloop` with the given arguments (without the program name) and
 * returns the exit code: 0 success, 1 failure, 2 usage error.
 */
export async function main(argv: string[], io: CommandIo): Promise<ExitCode> {
  const [first, second] = argv;
  if (first === undefined) return usageFailure(io, 'no command given', '');
  if (first === 'help' && second !== undefined) return main([...argv.slice(1), '--help'], io);
  if (first === '--help' || first === '-h' || first === 'help') {
    io.stdout(topLevelHelp());
    return 0;
  }
  if (first === '--version') {
    if (argv.length > 1) return usageFailure(io, `unexpected argument '${second}' after --version`, '');
    io.stdout(`${PROGRAM} ${VERSION}\n`);
    return 0;
  }
  const pair = COMMANDS.find((entry) => entry.name === `${first} ${second}`);
  if (pair) return runEntry(pair, argv.slice(2), io);
  const single = COMMANDS.find((entry) => entry.name === first);
  if (single) return runEntry(single, argv.slice(1), io);
  if (first in GROUP_SUMMARIES) {
    if (second === '--help' || second === '-h') {
      io.stdout(groupHelp(first));
      return 0;
    }
    const names = COMMANDS.filter((entry) => entry.name.startsWith(`${first} `)).map((entry) => entry.name.slice(first.length + 1));
    const problem = second === undefined ? `'${first}' needs a command: ${names.join(', ')}` : `unknown command '${first} ${second}'; '${first}' has ${names.join(', ')}`;
    return usageFailure(io, problem, `${first} `);
  }
  const meant = closestName(first, new Set(COMMANDS.map((entry) => entry.name.split(' ')[0]!)));
  return usageFailure(io, `unknown command '${first}'${meant === undefined ? '' : `; did you mean '${meant}'?`}`, '');
}

/** The CLI's version, replaced at build time by tsup's `define`. */
declare const __ASKLOOP_VERSION__: string | undefined;
const VERSION = typeof __ASKLOOP_VERSION__ === 'string' ? __ASKLOOP_VERSION__ : '0.0.0-source';
