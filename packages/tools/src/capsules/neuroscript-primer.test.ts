import { describe, expect, it } from 'vitest';
import { NEUROSCRIPT_PRIMER, neuroscriptPrimer, PRIMER_EXAMPLE_PROGRAM, PRIMER_EXAMPLE_WITHOUT_TOOL } from './neuroscript-primer.ts';

const allowing = (...tools: string[]) => (tool: string) => tools.includes(tool);

describe('neuroscriptPrimer', () => {
  it('is NEUROSCRIPT_PRIMER itself for an agent that may call tool.str.Split and tool.map.Keys', () => {
    expect(neuroscriptPrimer(() => true)).toBe(NEUROSCRIPT_PRIMER);
    expect(NEUROSCRIPT_PRIMER).toContain(PRIMER_EXAMPLE_PROGRAM);
    expect(NEUROSCRIPT_PRIMER).toContain('tool.map.Keys(m) gives its keys');
  });

  it('names no tool an agent may not call, and is no longer for it', () => {
    const none = neuroscriptPrimer(() => false);
    expect(none).toContain(PRIMER_EXAMPLE_WITHOUT_TOOL);
    // Only the pattern of a tool call (tool.group.Name), no tool of a real group.
    expect(none.match(/tool\.\w+\.\w+/g)).toEqual(['tool.group.Name', 'tool.group.Name']);
    expect(none.length).toBeLessThan(NEUROSCRIPT_PRIMER.length);
    const split = neuroscriptPrimer(allowing('tool.str.Split'));
    expect(split).toContain(PRIMER_EXAMPLE_PROGRAM);
    expect(split).not.toContain('tool.map');
    const keys = neuroscriptPrimer(allowing('tool.map.Keys'));
    expect(keys).toContain(PRIMER_EXAMPLE_WITHOUT_TOOL);
    expect(keys).not.toContain('tool.str');
    expect(keys).toContain('(over a map: its values; tool.map.Keys(m) gives its keys)');
  });

  it('asks about the tools by the names the catalogue shows', () => {
    const asked: string[] = [];
    neuroscriptPrimer((tool) => (asked.push(tool), true));
    expect(asked.sort()).toEqual(['tool.map.Keys', 'tool.str.Split']);
  });
});
