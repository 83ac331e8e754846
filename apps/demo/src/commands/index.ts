/**
 * Every command the `askloop` executable knows. Add a group here and it shows
 * up in `askloop --help`.
 */
import type { Command, CommandGroup } from '../io.ts';
import { demoCommand } from './demo.ts';
import { envelopeGroup } from './envelope/index.ts';
import { nsGroup } from './ns/index.ts';
import { mcpGroup } from './mcp/index.ts';

/** Commands called without a group: `askloop demo`. */
export const topLevelCommands: Command[] = [demoCommand];

/** Command groups: `askloop envelope parse`, `askloop ns check`, … */
export const commandGroups: CommandGroup[] = [envelopeGroup, nsGroup];
commandGroups.push(mcpGroup);
