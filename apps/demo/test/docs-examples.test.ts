/**
 * Runs every NeuroScript example of docs/neuroscript.md through the real
 * interpreter, sandbox, tool registry and policy, and compares its emits (or
 * its error code) with the block the guide shows under it. The guide's
 * examples are its contract: when the language changes, this fails.
 *
 * Blocks: ```neuroscript library (kept for the next program), ```neuroscript
 * (a program, run in agent mode, or host mode when libraries precede it),
 * then ```text (the expected emits, one per line) and/or ```error (the
 * expected error code).
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDefaultPool, createInterpreter } from '@askloop/interpreter';
import { createDefaultRegistry, createPolicy, createToolHost } from '@askloop/tools';

interface Example {
  readonly line: number;
  readonly libraries: readonly string[];
  readonly source: string;
  readonly output?: string;
  readonly error?: string;
}

const GUIDE = new URL('../../../docs/neuroscript.md', import.meta.url);

/** Splits the guide into examples, pairing each program with the blocks after it. */
function readExamples(markdown: string): Example[] {
  const fence = /^```([a-z]*)(?: ([a-z]+))?\n([\s\S]*?)^```$/gm;
  const examples: Example[] = [];
  let libraries: string[] = [];
  let current: { line: number; libraries: string[]; source: string; output?: string; error?: string } | undefined;
  for (const match of markdown.matchAll(fence)) {
    const [, language, variant, body = ''] = match;
    const line = markdown.slice(0, match.index).split('\n').length;
    if (language === 'neuroscript') {
      if (current !== undefined) examples.push(current);
      current = undefined;
      if (variant === 'library') libraries.push(body);
      else {
        current = { line, libraries, source: body };
        libraries = [];
      }
    } else if (current !== undefined && language === 'text') current.output = body;
    else if (current !== undefined && language === 'error') current.error = body.trim();
  }
  if (current !== undefined) examples.push(current);
  return examples;
}

const examples = readExamples(readFileSync(GUIDE, 'utf8'));
const fsRoot = mkdtempSync(join(tmpdir(), 'askloop-docs-'));
const registry = createDefaultRegistry({ fs: { root: fsRoot } });
const policy = createPolicy({ allow: ['tool.str.*', 'tool.list.*', 'tool.math.*', 'tool.json.*', 'tool.map.*'] });

afterAll(async () => {
  await closeDefaultPool();
});

describe('docs/neuroscript.md examples', () => {
  it('has an example for every statement', () => {
    const sources = examples.map((example) => example.libraries.join('\n') + example.source).join('\n');
    for (const statement of ['set', 'emit', 'whisper', 'call', 'if', 'else', 'while', 'break', 'continue', 'for each', 'must', 'fail', 'on error', 'clear_error', 'func', 'return', 'ask']) {
      expect(sources, statement).toMatch(new RegExp(`^\\s*${statement}\\b`, 'm'));
    }
    for (const example of examples) expect(example.output !== undefined || example.error !== undefined, `example at line ${example.line} shows no result`).toBe(true);
  });

  for (const example of examples) {
    it(`example at line ${example.line}`, async () => {
      const tools = createToolHost({ registry, policy, session: 'docs', turn: example.line });
      const interpreter = createInterpreter({
        orchestrator: { runAskLoop: (request) => `${request.agent} answered: ${request.prompt}` },
      });
      const result = await interpreter.run(example.source, {
        mode: example.libraries.length > 0 ? 'host' : 'agent',
        libraries: example.libraries,
        tools,
      });
      expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(example.error !== undefined && result.diagnostics.length > 0 ? [example.error] : []);
      expect(result.error?.code ?? null).toBe(example.error ?? null);
      expect(result.emits.join('\n') + (result.emits.length > 0 ? '\n' : '')).toBe(example.output ?? '');
    });
  }
});
