/** What `check` needs to know about where a program will run. */
import type { ToolCatalog } from '../tool-signature.ts';

/** The context a program is checked against. */
export interface CheckContext {
  /**
   * `agent`: an ACTIONS block of one turn (exactly one `command`, no
   * definitions, no `ask`/`promptuser` unless allowed). `host`: any script.
   */
  readonly mode: 'agent' | 'host';
  /**
   * When given, every tool reference must name a tool in it, with an accepted
   * argument count, and be allowed by its `check` (the host's one policy).
   */
  readonly tools?: ToolCatalog;
  /** Allow `ask` (default: false in agent mode, true in host mode). */
  readonly allowAsk?: boolean;
  /** Allow `promptuser` (default: false in agent mode, true in host mode). */
  readonly allowPromptUser?: boolean;
  /**
   * The names the host binds for the run (`userdata`, …). When given, a map
   * key written as a bare name that neither the program nor the host binds is
   * `SCRIPT_MAP_KEY_UNSET` (`{name: "Ada"}` meant `{"name": "Ada"}`).
   */
  readonly globals?: ReadonlySet<string>;
}
