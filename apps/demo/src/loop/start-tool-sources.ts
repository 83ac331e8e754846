/**
 * Starts the tool sources of the plugins (the MCP servers of `--mcp-config`
 * and of the config's `mcpServers`) before a loop command touches the
 * session. The controller lists a source's tools only when a turn begins,
 * after `run` has stored the session, so a server that does not start left a
 * session `running` with no turn and no id printed. Listing them here first
 * makes that failure happen before anything is stored (`run`) or decided
 * (`approve`, `deny`, `resume`). The sources keep their connections, so the
 * turns that follow reuse them; `loop.close()` stops them.
 */
import type { AskLoopPlugin } from '@askloop/controller';
import { CliError } from '../cli-error.ts';

/** Lists every source's tools once; a failure is `LOOP_PLUGIN_ERROR` (exit 1), as the controller would report it, saying what was not done. */
export async function startToolSources(plugins: readonly AskLoopPlugin[], nothingDone: string): Promise<void> {
  for (const plugin of plugins) {
    for (const source of plugin.toolSources ?? []) {
      try {
        await source.toolPacks();
      } catch (error) {
        const cause = error instanceof Error ? error.message : String(error);
        throw CliError.fromLoopError({ code: 'LOOP_PLUGIN_ERROR', message: `plugin '${plugin.name}' failed in toolSources.${source.name}.toolPacks: ${cause}; ${nothingDone}` });
      }
    }
  }
}
