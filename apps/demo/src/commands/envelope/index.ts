import type { CommandGroup } from '../../io.ts';
import { composeCommand } from './compose.ts';
import { controlCommand } from './control.ts';
import { digestCommand } from './digest.ts';
import { parseCommand } from './parse.ts';

/** `askloop envelope …`: the AEIOU v4 codec from the shell. */
export const envelopeGroup: CommandGroup = {
  name: 'envelope',
  summary: 'parse, compose and inspect AEIOU v4 envelopes',
  commands: [parseCommand, composeCommand, digestCommand, controlCommand],
};
