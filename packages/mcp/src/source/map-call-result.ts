/**
 * Turns an MCP `tools/call` result into a NeuroScript value:
 * `structuredContent` when present, else the text of the content blocks
 * joined with newlines (non-text blocks as a short bracketed note).
 */
import { toBoundedToolValue, toToolValue, type ResultBounds, type ToolValue } from '@askloop/tools';

/** The parts of a `CallToolResult` this module reads. */
export interface CallResultLike {
  readonly content?: readonly unknown[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

function blockText(block: unknown): string {
  const item = (typeof block === 'object' && block !== null ? block : {}) as Record<string, unknown>;
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? item.text : '';
    case 'image':
    case 'audio':
      return `[${item.type} ${String(item.mimeType)}, ${typeof item.data === 'string' ? item.data.length : 0} base64 characters]`;
    case 'resource_link':
      return `[resource ${String(item.uri)}]`;
    case 'resource': {
      const resource = (item.resource ?? {}) as Record<string, unknown>;
      return typeof resource.text === 'string' ? resource.text : `[resource ${String(resource.uri)}]`;
    }
    default:
      return `[${String(item.type)} content]`;
  }
}

/** The text of all content blocks, joined with `\n`. */
export function contentText(result: CallResultLike): string {
  return (result.content ?? []).map(blockText).join('\n');
}

/**
 * The NeuroScript value of a successful result. With `bounds` (the run's
 * limits, which the handler has from its context) structured content is
 * refused with `TOOL_RESULT_TOO_LARGE` at the first limit it crosses, before
 * anything walks it whole: a map of millions of keys was copied, redacted and
 * JSON-encoded here before the byte limit refused it, seconds of blocked host.
 */
export function mapCallResult(result: CallResultLike, bounds?: ResultBounds): ToolValue {
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return bounds === undefined ? toToolValue(result.structuredContent) : toBoundedToolValue(result.structuredContent, bounds);
  }
  return contentText(result);
}
