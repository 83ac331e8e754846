/**
 * A turn's system text as `askloop show` prints it: its size (and that
 * `--full` shows it); with `--full`, the text whole for the first turn, and
 * for each later one only what differs from the turn before. The system
 * text is the agent's shared part — rules, primer, host rules, instructions,
 * tool catalogue, the same every turn while the catalogue is — then the
 * turn's own tail from its budget line (the repair, nudge or answer-now
 * note, how to fix the last turn's error): the controller's
 * `sharedSystemLength` says where one ends. A shared part equal to the one
 * printed last is named, not printed again; one that changed (an MCP
 * server's tools did) is printed whole.
 */
import { sharedSystemLength, type TurnRecord } from '@askloop/controller';
import { labelled } from '../progress/format-turn-parts.ts';
import { formatCount } from '../progress/format-values.ts';
import type { TerminalColors } from '../progress/terminal-colors.ts';
import { textBlock } from './text-block.ts';

/** The shared part `show` printed last, and the turn it printed it with. */
export interface SharedSystemShown {
  readonly turn: number;
  readonly shared: string;
}

/** The lines of `record`'s system text, `shown` being the shared part printed before it (none: print it whole). */
export function formatSystemText(record: TurnRecord, shown: SharedSystemShown | undefined, options: { colors: TerminalColors; full: boolean }): string {
  const { colors } = options;
  const system = record.system;
  // A turn stored before its text was composed has none to show.
  if (system === '') return '';
  const size = `${formatCount(system.length)} chars sent`;
  if (!options.full) return labelled('system', colors.dim(`${size} (--full shows it)`), colors);
  const cut = sharedSystemLength(system);
  if (cut > 0 && shown !== undefined && system.slice(0, cut) === shown.shared) {
    const said = `${size} · the agent's shared part as in turn ${shown.turn} (${formatCount(cut)} chars), then this turn's own:`;
    // The tail starts after the blank line that ends the shared part.
    return labelled('system', colors.dim(said), colors) + textBlock(system.slice(cut + 2), colors, Number.POSITIVE_INFINITY);
  }
  const changed = cut > 0 && shown !== undefined ? ` (its shared part differs from turn ${shown.turn}'s)` : '';
  return labelled('system', colors.dim(`${size}${changed}`), colors) + textBlock(system, colors, Number.POSITIVE_INFINITY);
}

/** The shared part printed last once `record` is printed after `shown`. */
export function sharedSystemAfter(record: TurnRecord, shown: SharedSystemShown | undefined): SharedSystemShown | undefined {
  const cut = sharedSystemLength(record.system);
  if (cut === 0) return shown;
  const shared = record.system.slice(0, cut);
  return shown?.shared === shared ? shown : { turn: record.turnIndex, shared };
}
