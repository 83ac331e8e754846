import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { AEIOU_V4_AI_RULES, ASK_LOOP_V4_SUMMARY } from '../capsules/capsule-documents.ts';
import { NEUROSCRIPT_PRIMER, PRIMER_EXAMPLE_PROGRAM, PRIMER_EXAMPLE_WITHOUT_TOOL } from '../capsules/neuroscript-primer.ts';
import { LOOP_TOOLS_GUIDE } from '../capsules/loop-tools-guide.ts';
import { callableTool } from '../policy/callable-tool.ts';
import { createPolicy } from '../policy/policy.ts';
import { createToolRegistry } from '../registry/tool-registry.ts';
import { createCapsuleTools } from './capsule-tools.ts';
import { createSafeToolPacks } from './default-registry.ts';

describe('tool.capsule.List/Read', () => {
  const host = hostFor([createCapsuleTools()]);

  it('lists the documents', async () => {
    expect(await host.call('tool.capsule.List', [])).toEqual([
      { id: 'capsule/aeiou-rules', version: '4', title: 'AEIOU v4 AI-facing rules', description: 'How to read an envelope and how to finish the loop (the AEIOU v4 AI-facing rules, verbatim).' },
      { id: 'capsule/askloop', version: '4', title: 'Ask-loop v4 controller (summary)', description: 'Turn lifecycle, DONE marker, progress guard and security rules of the host loop.' },
      { id: 'capsule/loop-tools', version: '1', title: 'Loop-support tools', description: 'Caps, memory CAS, scratch with TTL, Plan → Apply and idempotent writes.' },
      { id: 'capsule/neuroscript', version: '1', title: 'NeuroScript in brief', description: 'The statements, values, operators and tool calls of an ACTIONS program, as every turn of the ask loop shows them.' },
    ]);
  });

  it('reads the AEIOU v4 AI-facing rules verbatim (seed 003 §13)', async () => {
    const document = (await host.call('tool.capsule.Read', ['capsule/aeiou-rules'])) as Record<string, string>;
    expect(document.content).toBe(AEIOU_V4_AI_RULES);
    expect(document.content?.split('\n')).toEqual([
      'Read only between START/END. Sections appear once: USERDATA, [SCRATCHPAD], [OUTPUT], ACTIONS.',
      'Only ACTIONS is executable. Write exactly one ns `command` block.',
      'USERDATA is immutable JSON input from the host.',
      'To control the loop:',
      '  - To Continue: Simply emit text/tools.',
      '  - To Finish: emit "<<<LOOP:DONE>>> <Optional Final Result>"',
      'The control marker MUST be in the output for the loop to stop.',
    ]);
  });

  it('accepts ids without the capsule/ prefix, in any case', async () => {
    expect(((await host.call('tool.capsule.Read', ['AskLoop'])) as Record<string, string>).content).toContain('<<<LOOP:DONE>>>');
  });

  it('fails with CAPSULE_NOT_FOUND listing the known ids', async () => {
    const error = await host.fail('tool.capsule.Read', ['nope']);
    expect([error.code, error.message]).toEqual(['CAPSULE_NOT_FOUND', "tool.capsule.Read: no capsule 'nope'; known: capsule/aeiou-rules, capsule/askloop, capsule/loop-tools, capsule/neuroscript (pack capsule)"]);
    expect((await host.fail('tool.capsule.Read', [])).code).toBe('TOOL_ARGUMENT_MISSING');
  });

  describe('capsule/askloop: the scratch tools named only to an agent that may call them', () => {
    const summaryFor = async (allow: readonly string[]) => {
      const reader = hostFor(createSafeToolPacks(), { allow });
      return ((await reader.call('tool.capsule.Read', ['capsule/askloop'])) as Record<string, string>).content ?? '';
    };

    it('names no tool.scratch tool to an agent whose policy leaves them out, and keeps the rest of the summary', async () => {
      const content = await summaryFor(['tool.capsule.*']);
      expect(content).not.toMatch(/tool\.scratch/i);
      expect(content).toContain('- No ambient network or filesystem: all effects go through the tools you may call.');
      expect(content.split('\n')).toHaveLength(ASK_LOOP_V4_SUMMARY.split('\n').length);
    });

    it('is the whole summary, as before, for an agent that may call a scratch tool', async () => {
      expect(await summaryFor(['tool.capsule.*', 'tool.scratch.Get'])).toBe(ASK_LOOP_V4_SUMMARY);
      expect(ASK_LOOP_V4_SUMMARY).toContain('(tool.scratch.*)');
    });
  });

  describe('capsule/neuroscript: the calling agent\'s primer', () => {
    const primerFor = async (allow: readonly string[], deny: readonly string[] = []) => {
      const reader = hostFor(createSafeToolPacks(), { allow, deny });
      return ((await reader.call('tool.capsule.Read', ['capsule/neuroscript'])) as Record<string, string>).content ?? '';
    };

    it('names no tool.str or tool.map tool to an agent whose policy leaves them out, and its example calls none', async () => {
      const content = await primerFor(['tool.capsule.*', 'tool.math.*']);
      expect(content).not.toMatch(/tool\.(str|map)\./i);
      expect(content).toContain(PRIMER_EXAMPLE_WITHOUT_TOOL);
    });

    it('leaves out only what the agent may not call: a denied tool.str.Split, or a tool.map.Keys it lacks', async () => {
      const denied = await primerFor(['**'], ['tool.str.Split']);
      expect(denied).not.toContain('tool.str.Split');
      expect(denied).toContain('tool.map.Keys(m) gives its keys');
      const strOnly = await primerFor(['tool.capsule.*', 'tool.str.*']);
      expect(strOnly).toContain(PRIMER_EXAMPLE_PROGRAM);
      expect(strOnly).not.toContain('tool.map.Keys');
    });

    it('is the whole primer for an agent that may call both, as before, and List is the same for every agent', async () => {
      expect(await primerFor(['tool.capsule.*', 'tool.str.*', 'tool.map.*'])).toBe(NEUROSCRIPT_PRIMER);
      // A registry without the tools (this file's host: the capsule pack alone) names none either.
      expect(((await host.call('tool.capsule.Read', ['neuroscript'])) as Record<string, string>).content).not.toMatch(/tool\.(str|map)\./i);
      const narrow = hostFor(createSafeToolPacks(), { allow: ['tool.capsule.*'] });
      expect(await narrow.call('tool.capsule.List', [])).toEqual(await host.call('tool.capsule.List', []));
    });
  });

  describe('capsule/loop-tools: only the tools the calling agent may call', () => {
    const guideFor = async (allow: readonly string[], grants: readonly string[] = []) => {
      const reader = hostFor(createSafeToolPacks(), { allow, grants });
      const content = ((await reader.call('tool.capsule.Read', ['capsule/loop-tools'])) as Record<string, string>).content ?? '';
      return { content, callable: callableTool(createToolRegistry(createSafeToolPacks()), createPolicy({ allow, grants })) };
    };
    const toolsNamed = (text: string) => [...new Set(text.match(/tool\.\w+\.\w+/gi) ?? [])];

    it('names no tool an agent allowed only tool.capsule.* and tool.math.* cannot call', async () => {
      const { content, callable } = await guideFor(['tool.capsule.*', 'tool.math.*']);
      expect(toolsNamed(content).filter((tool) => !callable(tool))).toEqual([]);
      expect(content).not.toMatch(/tool\.(str|memory|scratch|policy|system)\./i);
      // The named-arguments example is still there, with a tool the agent may call.
      expect(content).toContain('tool.capsule.Read({"id": "capsule/askloop"})');
    });

    it('shows memory only with its capabilities granted, and only the calls granted', async () => {
      const readOnly = await guideFor(['**'], ['memory:read']);
      expect(toolsNamed(readOnly.content).filter((tool) => !readOnly.callable(tool))).toEqual([]);
      expect(readOnly.content).toContain('tool.memory.Get(key)');
      expect(readOnly.content).not.toContain('tool.memory.CAS');
    });

    it('is the whole guide, as before, for an agent that may call everything', async () => {
      const { content } = await guideFor(['**'], ['*:*']);
      expect(content).toBe(LOOP_TOOLS_GUIDE);
    });
  });
});

