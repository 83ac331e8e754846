/** What `check` needs to know about where a program will run. */
import type { ToolCatalog } from '../tool-signature.ts';

/**
 * Allow and deny glob lists over canonical tool names (`tool.<group>.<name>`,
 * lower case); see `matchToolGlob` for the pattern syntax. A tool is allowed
 * when no deny pattern matches and some allow pattern does (deny by default).
 */
export interface ToolPolicy {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/** The context a program is checked against. */
export interface CheckContext {
  /**
   * `agent`: an ACTIONS block of one turn (exactly one `command`, no
   * definitions, no `ask`/`promptuser` unless allowed). `host`: any script.
   */
  readonly mode: 'agent' | 'host';
  /** When given, every tool reference must name a tool in it, with an accepted argument count. */
  readonly tools?: ToolCatalog;
  /** When given, every tool reference must be allowed by it. */
  readonly policy?: ToolPolicy;
  /** Allow `ask` (default: false in agent mode, true in host mode). */
  readonly allowAsk?: boolean;
  /** Allow `promptuser` (default: false in agent mode, true in host mode). */
  readonly allowPromptUser?: boolean;
}
