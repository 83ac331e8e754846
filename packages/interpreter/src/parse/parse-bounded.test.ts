import { afterAll, describe, expect, it } from 'vitest';
import { neuroScriptProgram } from '../../bench/programs.ts';
import { check } from '../check/check.ts';
import { closeParseWorker, DEFAULT_BOUNDED_MAX_LENGTH, DEFAULT_IN_HOST_MAX_LENGTH, parseBounded } from './parse-bounded.ts';
import { parse, parseIfMatches } from './parse.ts';
import { createParseSupervisor, type ParseSupervisor } from './parse-supervisor.ts';
import { MAX_SOURCE_LENGTH } from './preprocess.ts';

afterAll(async () => {
  await closeParseWorker();
});

/** Runs `body` with a parse supervisor of its own (a generous timeout: the machine may be loaded), closed afterwards. */
async function withSupervisor(body: (supervisor: ParseSupervisor) => Promise<void>): Promise<void> {
  const supervisor = createParseSupervisor({ timeoutMs: 60_000 });
  try {
    await body(supervisor);
  } finally {
    await supervisor.close();
  }
}

describe('parseBounded', () => {
  it('parses small sources in the calling thread, exactly as parse does', async () => {
    const source = neuroScriptProgram(2_000);
    expect(await parseBounded(source, { fileName: 'a.ns' })).toEqual(parse(source, { fileName: 'a.ns' }));
    expect(await parseBounded(42 as unknown as string)).toEqual(parse(42 as unknown as string));
  });

  it('parses a matching source above the in-host size in the calling thread, with the generated matcher: the same plain AST, no worker', async () => {
    await withSupervisor(async (supervisor) => {
      const source = neuroScriptProgram(DEFAULT_IN_HOST_MAX_LENGTH + 4_000);
      const result = await parseBounded(source, { fileName: 'big.ns', supervisor });
      expect(result.ok).toBe(true);
      expect(result).toEqual(parse(source, { fileName: 'big.ns' }));
      if (result.ok) expect(check(result.program, { mode: 'agent' })).toEqual([]);
      expect(supervisor.stats()).toMatchObject({ parses: 0, workersStarted: 0 });
    });
  });

  it('parses a source above the in-host size that does not match in the worker, where Ohm says why: the same diagnostics as parse', async () => {
    await withSupervisor(async (supervisor) => {
      const valid = neuroScriptProgram(DEFAULT_IN_HOST_MAX_LENGTH + 4_000);
      const source = valid.replace(/endcommand\s*$/, 'endcommand\n  emit )\n');
      expect(source).not.toBe(valid);
      // A generous deadline: this checks the answer, not the speed (the build machine is shared).
      const result = await parseBounded(source, { fileName: 'big.ns', supervisor });
      expect(result.ok ? 'ok' : result.diagnostics[0]?.code).toBe('SCRIPT_SYNTAX');
      expect(result).toEqual(parse(source, { fileName: 'big.ns' }));
      expect(supervisor.stats()).toMatchObject({ parses: 1, workersStarted: 1 });
    });
  });

  it('brings every syntax error back from the worker, not only the first', async () => {
    await withSupervisor(async (supervisor) => {
      const valid = neuroScriptProgram(DEFAULT_IN_HOST_MAX_LENGTH + 4_000);
      // The first and the last assignment lose their 'set'.
      const first = valid.indexOf('set upper = ');
      const last = valid.lastIndexOf('set upper = ');
      const source = `${valid.slice(0, first)}${valid.slice(first + 4, last)}${valid.slice(last + 4)}`;
      const result = await parseBounded(source, { supervisor });
      expect(result.ok ? [] : result.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
        "An assignment needs 'set': write 'set upper = tool.str.ToUpper(f)'.",
        "An assignment needs 'set': write 'set upper = tool.str.ToUpper(f)'.",
      ]);
      expect(result).toEqual(parse(source));
      expect(supervisor.stats()).toMatchObject({ parses: 1 });
    });
  });

  it('answers a matching source whose {{…}} hole does not match in the calling thread, without Ohm: the same diagnostics as parse', async () => {
    await withSupervisor(async (supervisor) => {
      // Ohm's match of this 16 KB hole took about a second and 300 MB per 60 KB in the calling thread.
      const source = `command\n  emit \`\`\`{{${'1+'.repeat(DEFAULT_IN_HOST_MAX_LENGTH)}}}\`\`\`\nendcommand\n`;
      const result = await parseBounded(source, { supervisor });
      expect(result.ok ? 'ok' : result.diagnostics[0]?.code).toBe('SCRIPT_BAD_INTERPOLATION');
      expect(result).toEqual(parse(source));
      expect(supervisor.stats()).toMatchObject({ parses: 0, workersStarted: 0 });
    });
  });

  it('sends a matching source whose {{…}} hole the generated matcher gives up on to the worker, where Ohm answers it', async () => {
    await withSupervisor(async (supervisor) => {
      const padding = '  emit 1\n'.repeat(DEFAULT_IN_HOST_MAX_LENGTH / 8);
      const source = `command\n${padding}  emit \`\`\`{{${'('.repeat(200)}1${')'.repeat(200)}}}\`\`\`\nendcommand\n`;
      expect(parseIfMatches(source)).toBeUndefined();
      const result = await parseBounded(source, { supervisor });
      expect(result.ok ? 'ok' : result.diagnostics[0]?.code).toBe('SCRIPT_NESTING_TOO_DEEP');
      expect(result).toEqual(parse(source));
      expect(supervisor.stats()).toMatchObject({ parses: 1, workersStarted: 1 });
    });
  });

  it('answers the largest source the envelope allows (1 MiB) with a typed diagnostic, without parsing it', async () => {
    const source = `command\n${'  emit "x"\n'.repeat(95_000)}endcommand\n`;
    expect(source.length).toBeGreaterThan(MAX_SOURCE_LENGTH - 5_000);
    expect(source.length).toBeLessThanOrEqual(MAX_SOURCE_LENGTH);
    const result = await parseBounded(source, { fileName: 'huge.ns' });
    expect(result).toEqual({
      ok: false,
      diagnostics: [expect.objectContaining({ code: 'SCRIPT_PROGRAM_TOO_LARGE', line: 1, column: 1, file: 'huge.ns', numericCode: 37 })],
    });
    if (!result.ok) expect(result.diagnostics[0]?.message).toContain(`limit maxLength = ${DEFAULT_BOUNDED_MAX_LENGTH}`);
  });

  it('answers a 600 KB list literal the same way', async () => {
    const source = `command\n  set x = [${Array.from({ length: 100_000 }, (_, index) => String(index % 1000)).join(', ')}]\nendcommand\n`;
    expect(source.length).toBeGreaterThan(400_000);
    const result = await parseBounded(source);
    expect(result.ok ? 'ok' : result.diagnostics[0]?.code).toBe('SCRIPT_PROGRAM_TOO_LARGE');
  });

  it('sends an 8 KiB script of unclosed [[ lines, which cost Ohm 1.7 s in the calling thread, to the worker', async () => {
    await withSupervisor(async (supervisor) => {
      const source = `command\n${`  emit ${'['.repeat(60)}\n`.repeat(120)}endcommand\n`;
      expect(source.length).toBeLessThanOrEqual(8 * 1024);
      expect(parseIfMatches(source)).toBeUndefined();
      const result = await parseBounded(source, { supervisor });
      expect(result.ok ? 'ok' : result.diagnostics[0]?.code).toBe('SCRIPT_SYNTAX');
      expect(supervisor.stats()).toMatchObject({ parses: 1, workersStarted: 1 });
    });
  });

  it('uses the caller’s supervisor and size limits', async () => {
    await withSupervisor(async (supervisor) => {
      const source = 'command\n  emit 1 +\nendcommand\n';
      expect(await parseBounded(source, { inHostMaxLength: 0, supervisor })).toEqual(parse(source));
      expect(supervisor.stats()).toMatchObject({ parses: 1, workersStarted: 1 });
      const refused = await parseBounded(source, { inHostMaxLength: 0, maxLength: 10, supervisor });
      expect(refused.ok ? 'ok' : refused.diagnostics[0]?.code).toBe('SCRIPT_PROGRAM_TOO_LARGE');
    });
  });
});
