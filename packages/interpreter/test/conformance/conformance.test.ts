/**
 * Runs the data-driven conformance suites:
 * - `parse/<case>/input.ns` → `expected.json` holds `{ok:true, program}` or `{ok:false, diagnostics}`;
 * - `check/<case>/input.ns` + `context.json` (its `globals` a list of names) → `expected.json` holds the diagnostics array.
 * Set `UPDATE_CONFORMANCE=1` to (re)write missing or changed expectations — then review the diff.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, parse, type CheckContext, type ToolCatalog, type ToolSignature } from '../../src/index.ts';

const root = import.meta.dirname;
const update = process.env.UPDATE_CONFORMANCE === '1';

function cases(suite: string): string[] {
  return readdirSync(join(root, suite), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function compare(file: string, actual: unknown): void {
  const json = `${JSON.stringify(actual, null, 2)}\n`;
  if (update || !existsSync(file)) {
    if (!update) throw new Error(`missing ${file}; run with UPDATE_CONFORMANCE=1 and review it`);
    writeFileSync(file, json);
    return;
  }
  expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')));
}

/**
 * A catalogue built from plain signatures, as context.json lists them. It
 * stands in for the host (`@askloop/tools` answers these in a real run): no
 * policy (every listed tool is allowed), suggestions by last segment or a
 * one-letter typo, and the tools package's named-argument rule.
 */
function catalogOf(signatures: readonly ToolSignature[]): ToolCatalog {
  const byName = new Map(signatures.map((signature) => [signature.name.toLowerCase(), signature]));
  const last = (name: string): string => name.slice(name.lastIndexOf('.') + 1);
  return {
    get: (name) => byName.get(`tool.${name.toLowerCase().replace(/^(tool\.)+/, '')}`),
    names: () => [...byName.keys()].sort(),
    suggest: (name) => [...byName.keys()].filter((candidate) => last(candidate) === last(name) || last(candidate) === last(name).slice(0, -1)),
    isNamedArgumentMap(name, keys) {
      const declared = byName.get(name)?.arguments ?? [];
      const lower = keys.map((key) => key.toLowerCase());
      if (lower.length === 0 || !lower.every((key) => declared.some((argument) => argument.name === key))) return false;
      const first = declared[0];
      return first === undefined || (first.type !== 'map' && first.type !== 'any') || lower.some((key) => key !== first.name);
    },
  };
}

describe('parse conformance', () => {
  const names = cases('parse');
  it('has cases', () => expect(names.length).toBeGreaterThan(50));
  for (const name of names) {
    it(name, () => {
      const directory = join(root, 'parse', name);
      const result = parse(readFileSync(join(directory, 'input.ns'), 'utf8'));
      compare(join(directory, 'expected.json'), result);
      // The AST is plain data: a JSON round trip changes nothing.
      expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    });
  }
});

describe('check conformance', () => {
  const names = cases('check');
  it('has cases', () => expect(names.length).toBeGreaterThan(20));
  for (const name of names) {
    it(name, () => {
      const directory = join(root, 'check', name);
      const raw = JSON.parse(readFileSync(join(directory, 'context.json'), 'utf8')) as Omit<CheckContext, 'globals'> & { tools?: ToolSignature[]; globals?: string[] };
      // `globals` is a list in the JSON (the names the host binds), a set in the context.
      const { globals, ...rest } = raw;
      const context: CheckContext = { ...rest, ...(raw.tools ? { tools: catalogOf(raw.tools as unknown as ToolSignature[]) } : {}), ...(globals === undefined ? {} : { globals: new Set(globals) }) };
      const parsed = parse(readFileSync(join(directory, 'input.ns'), 'utf8'));
      if (!parsed.ok) throw new Error(`check case does not parse: ${JSON.stringify(parsed.diagnostics)}`);
      compare(join(directory, 'expected.json'), check(parsed.program, context));
    });
  }
});
