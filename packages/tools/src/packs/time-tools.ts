/**
 * `tool.time.*`: the current time from the host's injectable clock, so a
 * replayed turn sees the same time. The reference returns a `timedate`
 * value; values here are plain data, so Now gives RFC 3339 text (UTC, ms).
 */
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';

/** Creates the `time` pack. */
export function createTimeTools(): ToolPack {
  return defineToolPack('time', [
    defineTool({ name: 'tool.time.Now', description: 'The current time as RFC 3339 text in UTC, e.g. 2026-01-01T00:00:00.000Z.', returns: 'string' }, (_args, context) =>
      new Date(context.clock.now()).toISOString(),
    ),
    defineTool({ name: 'tool.time.NowUnixMillis', description: 'The current time in milliseconds since 1970-01-01T00:00:00Z.', returns: 'int' }, (_args, context) => Math.trunc(context.clock.now())),
  ]);
}
