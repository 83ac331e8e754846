import { describe, expect, it } from 'vitest';
import { neuroScriptProgram } from '../../bench/programs.ts';
import { parse } from './parse.ts';
import { createParseSupervisor } from './parse-supervisor.ts';

const SMALL = 'command\n  emit "hi"\nendcommand\n';

describe('createParseSupervisor', () => {
  it('parses in a warm worker that is reused, in call order', async () => {
    // A generous deadline: this checks the answers, not the speed (the build machine is shared).
    const supervisor = createParseSupervisor({ timeoutMs: 60_000 });
    try {
      const sources = [SMALL, 'command\n  emit [1, 2\nendcommand\n', `command\n  emit ${'['.repeat(500)}${']'.repeat(500)}\nendcommand\n`, neuroScriptProgram(3_000)];
      const results = await Promise.all(sources.map((source) => supervisor.parse(source, 'f.ns')));
      expect(results).toEqual(sources.map((source) => parse(source, { fileName: 'f.ns' })));
      expect(results.map((result) => (result.ok ? 'ok' : result.diagnostics[0]?.code))).toEqual(['ok', 'SCRIPT_SYNTAX', 'SCRIPT_NESTING_TOO_DEEP', 'ok']);
      expect(supervisor.stats()).toEqual({ parses: 4, workersStarted: 1, workersKilled: 0, queued: 0 });
    } finally {
      await supervisor.close();
    }
  });

  it('terminates the worker at the deadline with SCRIPT_PARSE_LIMIT', async () => {
    const supervisor = createParseSupervisor({ timeoutMs: 1 });
    try {
      // 1 ms is less than it takes to start a worker, let alone parse 60 KB.
      const killed = await supervisor.parse(neuroScriptProgram(60_000), 'slow.ns');
      expect(killed).toEqual({ ok: false, diagnostics: [expect.objectContaining({ code: 'SCRIPT_PARSE_LIMIT', line: 1, column: 1, file: 'slow.ns' })] });
      if (!killed.ok) expect(killed.diagnostics[0]?.message).toContain('limit parse timeoutMs = 1');
      expect(supervisor.stats()).toMatchObject({ parses: 1, workersStarted: 1, workersKilled: 1 });
    } finally {
      await supervisor.close();
    }
  });

  it('starts a fresh worker after one was killed, and answers the next parse', async () => {
    const supervisor = createParseSupervisor({ memoryMb: 24, timeoutMs: 60_000 });
    try {
      // A syntax error at the very end: the generated matcher gives up and Ohm's memo table (not the
      // tree, which now fits) outgrows 24 MiB.
      const killed = await supervisor.parse(`${neuroScriptProgram(60_000)})\n`);
      expect(killed.ok ? 'ok' : killed.diagnostics[0]?.code).toBe('SCRIPT_PARSE_LIMIT');
      expect(await supervisor.parse(SMALL)).toEqual(parse(SMALL));
      expect(supervisor.stats()).toMatchObject({ parses: 2, workersStarted: 2, workersKilled: 1 });
    } finally {
      await supervisor.close();
    }
  });

  it('stops a parse that outgrows the heap limit with SCRIPT_PARSE_LIMIT, and the host lives on', async () => {
    const supervisor = createParseSupervisor({ memoryMb: 8, timeoutMs: 60_000 });
    try {
      const result = await supervisor.parse(neuroScriptProgram(60_000));
      expect(result.ok ? 'ok' : result.diagnostics[0]?.code).toBe('SCRIPT_PARSE_LIMIT');
      if (!result.ok) expect(result.diagnostics[0]?.message).toContain('memoryMb = 8');
      expect(supervisor.stats().workersKilled).toBe(1);
    } finally {
      await supervisor.close();
    }
  });
});
