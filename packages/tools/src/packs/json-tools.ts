/**
 * `tool.json.*`: parse and stringify. Stringify sorts map keys so the text is
 * stable across runs (the reference renders maps in Go's random order, §6).
 */
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { parseJsonValue, stringifyValue } from './string-tools.ts';
import { markWorkerLocal } from '../local/worker-local.ts';

/** Creates the `json` pack. */
export function createJsonTools(): ToolPack {
  return markWorkerLocal(defineToolPack('json', [
    defineTool({ name: 'tool.json.Parse', description: 'The value encoded by the JSON text.', args: [{ name: 'text', type: 'string', description: 'JSON text.' }], returns: 'any' }, (args) =>
      parseJsonValue(args.text as string, 'text'),
    ),
    defineTool(
      {
        name: 'tool.json.Stringify',
        description: 'The value as JSON text with sorted keys; pretty indents by two spaces.',
        args: [
          { name: 'value', type: 'any', description: 'Any value.' },
          { name: 'pretty', type: 'bool', default: false, description: 'Indent the output.' },
        ],
        returns: 'string',
      },
      (args, context) => stringifyValue(args.value as ToolValue, args.pretty === true ? '  ' : undefined, '', context.maxResultLength, 'tool.json.Stringify'),
    ),
  ], { pure: true }));
}
