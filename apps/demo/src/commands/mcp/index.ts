/** `askloop mcp …`: the Model Context Protocol both ways. */
import type { CommandGroup } from '../../io.ts';
import { serveCommand } from './serve.ts';
import { toolsCommand } from './tools.ts';

/** The `mcp` command group. */
export const mcpGroup: CommandGroup = {
  name: 'mcp',
  summary: 'Model Context Protocol: serve AskLoop to MCP clients, list MCP servers\' tools',
  commands: [serveCommand, toolsCommand],
};
