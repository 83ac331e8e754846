/** Live progress of a loop on a terminal, and the formats `askloop show` shares with it. */
export { createProgressRenderer, type ProgressFinishOptions, type ProgressRenderer, type ProgressRendererOptions, type ProgressStream } from './progress-renderer.ts';
export { formatSummary } from './format-summary.ts';
export { terminalProgress } from './terminal-progress.ts';
export { formatProgram } from './format-program.ts';
export { highlightNeuroScript, tokenizeNeuroScript, type NeuroScriptToken, type NeuroScriptTokenKind } from './highlight-neuroscript.ts';
export { shouldUseColor, shouldUseMotion, terminalColors, type TerminalColors, type TerminalFacts } from './terminal-colors.ts';
export { terminalSafe } from './terminal-safe.ts';
