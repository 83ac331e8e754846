/**
 * `askloop view [SID] [--db FILE] [--port N] [--no-open]`: the session viewer
 * (work in progress; the server lands in src/view/).
 */
import { usageError } from '../cli-error.ts';
import type { Command } from '../io.ts';

/** `askloop view`. */
export const viewCommand: Command = {
  usage: `Usage: askloop view [SID] [--db FILE] [--port N] [--no-open]\n`,
  async run() {
    throw usageError('askloop view is not finished yet');
  },
};
