/** `askloop ns …`: NeuroScript tools for the shell. */
import type { CommandGroup } from '../../io.ts';
import { checkCommand } from './check.ts';
import { runCommand } from './run.ts';

/** The `ns` command group. */
export const nsGroup: CommandGroup = {
  name: 'ns',
  summary: 'NeuroScript: parse and check scripts before anything runs',
  commands: [checkCommand, runCommand],
};
