import { parseArgs } from 'node:util';
import { commandGroups, topLevelCommands } from './commands/index.ts';
import { UsageError, type Command, type CommandGroup, type CommandIo, type ExitCode } from './io.ts';

const PROGRAM = 'askloop';

/** Text of `askloop --help`. */
export function topLevelHelp(): string {
  const lines = [
    `${PROGRAM} — run LLM agents that act by writing NeuroScript, in a host-controlled AEIOU v4 loop.`,
    '',
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
  ];
  for (const command of topLevelCommands) lines.push(`  ${command.name.padEnd(22)}${command.summary}`);
  for (const group of commandGroups) {
    for (const command of group.commands) {
      lines.push(`  ${`${group.name} ${command.name}`.padEnd(22)}${command.summary}`);
    }
  }
  lines.push('', `Run '${PROGRAM} <command> --help' for a command's options.`, '');
  return lines.join('\n');
}

function groupHelp(group: CommandGroup): string {
  const lines = [`${PROGRAM} ${group.name} — ${group.summary}`, '', `Usage: ${PROGRAM} ${group.name} <command> [options]`, '', 'Commands:'];
  for (const command of group.commands) lines.push(`  ${command.name.padEnd(12)}${command.summary}`);
  lines.push('', `Run '${PROGRAM} ${group.name} <command> --help' for details.`, '');
  return lines.join('\n');
}

async function runCommand(command: Command, args: string[], io: CommandIo): Promise<ExitCode> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${command.usage.trimEnd()}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.stderr(`${PROGRAM}: ${(error as Error).message}\n\n${command.usage.trimEnd()}\n`);
      return 2;
    }
    throw error;
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/**
 * Runs `askloop` with the given arguments (without the program name) and
 * returns the exit code: 0 success, 1 failure, 2 usage error.
 */
export async function main(argv: string[], io: CommandIo): Promise<ExitCode> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout(topLevelHelp());
    return first === undefined ? 2 : 0;
  }
  if (first === '--version') {
    parseArgs({ args: rest, strict: true, allowPositionals: false });
    io.stdout(`${PROGRAM} ${VERSION}\n`);
    return 0;
  }
  const topLevel = topLevelCommands.find((command) => command.name === first);
  if (topLevel) return runCommand(topLevel, rest, io);
  const group = commandGroups.find((candidate) => candidate.name === first);
  if (!group) {
    io.stderr(`${PROGRAM}: unknown command '${first}'.\n\n${topLevelHelp()}`);
    return 2;
  }
  const [name, ...args] = rest;
  if (name === undefined || name === '--help' || name === '-h') {
    io.stdout(groupHelp(group));
    return name === undefined ? 2 : 0;
  }
  const command = group.commands.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr(`${PROGRAM}: unknown command '${group.name} ${name}'.\n\n${groupHelp(group)}`);
    return 2;
  }
  return runCommand(command, args, io);
}

/** The CLI's version, replaced at build time by tsup's `define`. */
declare const __ASKLOOP_VERSION__: string | undefined;
const VERSION = typeof __ASKLOOP_VERSION__ === 'string' ? __ASKLOOP_VERSION__ : '0.0.0-source';
