/**
 * The names a turn's program reads without setting them: the globals
 * `execute-turn.ts` binds for every run (`userdata`, the session id and the
 * turn number). The check is told them, so it can tell a map key written as
 * a bare name (`{name: "Ada"}`) from one of these.
 */
export const PROGRAM_GLOBALS: readonly string[] = Object.freeze(['userdata', 'sid', 'turn_index']);
