/**
 * `tool.list.*`: pure list tools with the reference's names and argument
 * order (reference §2.7). Lists are values, so every tool returns a new list
 * (the reference's `AppendInPlace` has no meaning for copied values and is
 * left out).
 */
import { ToolError } from '../errors/tool-error.ts';
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { compareUtf8 } from '../spec/canonical-json.ts';
import { defineTool } from '../spec/define-tool.ts';
import { toolValuesEqual, type ToolValue } from '../spec/tool-value.ts';
import { markWorkerLocal } from '../local/worker-local.ts';

const list = { name: 'list', type: 'list', description: 'The list to work on.' } as const;
const items = (value: ToolValue | undefined): readonly ToolValue[] => value as readonly ToolValue[];

function sortList(values: readonly ToolValue[]): ToolValue[] {
  if (values.every((value) => typeof value === 'number')) return [...(values as number[])].sort((a, b) => a - b);
  if (values.every((value) => typeof value === 'string')) return [...(values as string[])].sort(compareUtf8);
  throw new ToolError('TOOL_VALUE_TYPE', 'tool.list.Sort sorts lists of only numbers or only strings');
}

/** Creates the `list` pack. */
export function createListTools(): ToolPack {
  return markWorkerLocal(defineToolPack('list', [
    defineTool({ name: 'tool.list.Length', description: 'Number of elements.', args: [list], returns: 'int' }, (args) => items(args.list).length),
    defineTool({ name: 'tool.list.Append', description: 'A new list with the element added at the end.', args: [list, { name: 'element', type: 'any', required: false }], returns: 'list' }, (args) => [
      ...items(args.list),
      args.element ?? null,
    ]),
    defineTool({ name: 'tool.list.Prepend', description: 'A new list with the element added at the start.', args: [list, { name: 'element', type: 'any', required: false }], returns: 'list' }, (args) => [
      args.element ?? null,
      ...items(args.list),
    ]),
    defineTool(
      {
        name: 'tool.list.Get',
        description: 'The element at index (from 0), or default when the index is out of range.',
        args: [list, { name: 'index', type: 'int' }, { name: 'default', type: 'any', required: false }],
        returns: 'any',
      },
      (args) => {
        const values = items(args.list);
        const index = args.index as number;
        return index >= 0 && index < values.length ? (values[index] as ToolValue) : (args.default ?? null);
      },
    ),
    defineTool(
      {
        name: 'tool.list.Slice',
        description: 'The elements from start up to, not including, end (0 <= start <= end <= length).',
        args: [list, { name: 'start', type: 'int' }, { name: 'end', type: 'int' }],
        returns: 'list',
      },
      (args) => {
        const values = items(args.list);
        const start = args.start as number;
        const end = args.end as number;
        if (start < 0 || end < start || end > values.length) throw new ToolError('TOOL_VALUE_BOUNDS', `slice [${start}:${end}] is out of range for a list of ${values.length} elements`);
        return values.slice(start, end);
      },
    ),
    defineTool({ name: 'tool.list.Contains', description: 'True when some element equals the given one (deep equality).', args: [list, { name: 'element', type: 'any', required: false }], returns: 'bool' }, (args) =>
      items(args.list).some((value) => toolValuesEqual(value, args.element ?? null)),
    ),
    defineTool({ name: 'tool.list.Reverse', description: 'A new list in reverse order.', args: [list], returns: 'list' }, (args) => [...items(args.list)].reverse()),
    defineTool({ name: 'tool.list.Sort', description: 'A new list sorted ascending; all numbers or all strings.', args: [list], returns: 'list' }, (args) => sortList(items(args.list))),
    defineTool({ name: 'tool.list.Head', description: 'The first element, or nil for an empty list.', args: [list], returns: 'any' }, (args) => items(args.list)[0] ?? null),
    defineTool({ name: 'tool.list.Rest', description: 'Every element but the first.', args: [list], returns: 'list' }, (args) => items(args.list).slice(1)),
    defineTool({ name: 'tool.list.Tail', description: 'The last count elements (all of them when count exceeds the length; none when count <= 0).', args: [list, { name: 'count', type: 'int' }], returns: 'list' }, (args) => {
      const count = args.count as number;
      // Like the Go original, a count of 0 or less gives an empty list.
      return count <= 0 ? [] : items(args.list).slice(-count);
    }),
    defineTool({ name: 'tool.list.IsEmpty', description: 'True when the list has no elements.', args: [list], returns: 'bool' }, (args) => items(args.list).length === 0),
  ], { pure: true }));
}
