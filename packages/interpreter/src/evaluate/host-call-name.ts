/**
 * Names under which `ask` and `promptuser` travel over the sandbox's tool
 * channel. They start with `$`, which no tool name can, so they never collide.
 */

/** The channel name of a non-tool host request. */
export function hostCallName(kind: 'ask' | 'promptuser'): string {
  return `$${kind}`;
}

/** The channel name for `ask`. */
export const ASK_CALL = '$ask';

/** The channel name for `promptuser`. */
export const PROMPT_USER_CALL = '$promptuser';
