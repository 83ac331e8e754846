/**
 * The live progress of a real scripted session, rendered with and without
 * colour, compared with snapshots; and the rules for colour and motion.
 */
import { stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createStreamRedactor } from '../src/redact-secrets.ts';
import { createProgressRenderer, shouldUseColor, shouldUseMotion } from '../src/progress/index.ts';
import type { LoopEvent, LoopResult } from '@askloop/controller';
import { RECORDED_CEILINGS, recordScriptedSession } from './record-scripted-session.ts';

let events: LoopEvent[];
let result: LoopResult;

beforeAll(async () => {
  ({ events, result } = await recordScriptedSession());
});

function render(color: boolean, dbPath?: string): string {
  let out = '';
  const renderer = createProgressRenderer({ stream: { write: (text) => (out += text) }, color, motion: false, ceilings: RECORDED_CEILINGS, width: 100 });
  for (const event of events) renderer.onEvent(event);
  renderer.finish(result, dbPath === undefined ? {} : { dbPath });
  return out;
}

describe('createProgressRenderer', () => {
  it('the recorded session went through the turns the renderer shows', () => {
    expect(result.decisions.map((entry) => entry.decision)).toEqual(['CONTINUE', 'CONTINUE', 'DONE']);
    expect(events.filter((event) => event.type === 'tool-call')).toHaveLength(2);
  });

  it('renders a session without colour (a pipe, NO_COLOR)', () => {
    const text = render(false, '/data/sessions.db');
    expect(text).not.toContain('\u001b');
    expect(text).toMatchSnapshot();
  });

  it('renders the same session with colour, whose text is the plain rendering', () => {
    const coloured = render(true, '/data/sessions.db');
    expect(coloured).toContain('\u001b[');
    expect(stripVTControlCharacters(coloured)).toBe(render(false, '/data/sessions.db'));
    expect(coloured).toMatchSnapshot();
  });

  it('gives a turn continued by resume or approve (no turn-start in this process) its header at its first event', () => {
    // Turn 2 as `askloop resume` goes on with it after a crash that followed its saved reply: from its program on.
    const firstPrepared = events.findIndex((event) => event.type === 'prepared' && event.turnIndex === 2);
    const continued = events.filter((event, index) => !('turnIndex' in event && event.turnIndex === 2 && index < firstPrepared));
    let out = '';
    const renderer = createProgressRenderer({ stream: { write: (text) => (out += text) }, color: false, motion: false, width: 100 });
    for (const event of continued) renderer.onEvent(event);
    expect(out.match(/^turn \d.*$/gm)).toEqual(['turn 1', 'turn 2 (continued)', 'turn 3']);
    expect(out.indexOf('turn 2 (continued)')).toBeLessThan(out.indexOf('program', out.indexOf('turn 2 (continued)')));
    // The whole session, as run: no turn is said to be continued.
    expect(render(false)).not.toContain('(continued)');
  });

  it('says when the session is not stored, and how to go on after a cancel or a pause', () => {
    const renderLast = (last: LoopResult) => {
      let out = '';
      createProgressRenderer({ stream: { write: (text) => (out += text) }, color: false, motion: false }).finish(last);
      return out;
    };
    expect(renderLast(result)).toContain('not stored');
    expect(renderLast({ ...result, status: 'HALT', reason: 'ERR_CANCELLED', result: null })).toContain(`askloop resume ${result.sid}`);
    expect(renderLast({ ...result, status: 'PAUSED', reason: 'AWAITING_APPROVAL', result: null })).toContain(`askloop approve ${result.sid}`);
    let quiet = '';
    createProgressRenderer({ stream: { write: (text) => (quiet += text) }, color: false, motion: false }).finish({ ...result, status: 'HALT', reason: 'ERR_CANCELLED', result: null }, { nextSteps: false });
    expect(quiet).toContain('HALT ERR_CANCELLED');
    expect(quiet).not.toContain('askloop resume');
  });

  it('shows control characters from the model escaped, never raw', () => {
    let out = '';
    const renderer = createProgressRenderer({ stream: { write: (text) => (out += text) }, color: false, motion: false });
    const base = { sid: 's', loopId: 'l', ts: '2026-01-01T00:00:00.000Z', turnIndex: 1 } as const;
    renderer.onEvent({ ...base, type: 'emit', text: 'red \u001b[31malert\u001b[0m\rover' });
    renderer.onEvent({ ...base, type: 'prepared', actions: 'command\n  emit "\u001b]0;title\u0007"\nendcommand', diagnostics: [], ok: true });
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('\\x1b[31malert');
  });
});

describe('motion', () => {
  it('shows a spinner with the streamed text while the model answers, and stops it when the reply is in', () => {
    let out = '';
    // A terminal stand-in: what yocto-spinner needs of a TTY stream.
    const tty = { isTTY: true, columns: 80, write: (text: string) => (out += text), cursorTo: () => true, moveCursor: () => true, clearLine: () => true };
    const renderer = createProgressRenderer({ stream: tty, color: false, motion: true });
    const upToReply = events.slice(0, events.findIndex((event) => event.type === 'reply') + 1);
    for (const event of upToReply) renderer.onEvent(event);
    expect(out).toContain('turn 1 · model thinking');
    expect(out).toContain('emit tool.fs.Read');
    // The reply's usage, as the recorded session has it (the input depends on the system text's length).
    const reply = upToReply.at(-1) as Extract<(typeof events)[number], { type: 'reply' }>;
    expect(out.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`model +${reply.inputTokens.toLocaleString('en-US')} in → ${reply.outputTokens} out tokens`));
    renderer.close();
    renderer.close();
  });

  it('stops the spinner at the END line, not when the call ends after it', () => {
    // yocto-spinner draws (and shows the cursor again when it stops) only on an interactive terminal, never under CI.
    const ci = process.env['CI'];
    delete process.env['CI'];
    onTestFinished(() => {
      if (ci !== undefined) process.env['CI'] = ci;
    });
    let out = '';
    const tty = { isTTY: true, columns: 80, write: (text: string) => (out += text), cursorTo: () => true, moveCursor: () => true, clearLine: () => true };
    const renderer = createProgressRenderer({ stream: tty, color: false, motion: true });
    const replyAt = events.findIndex((event) => event.type === 'reply');
    const texts = events.slice(0, replyAt).filter((event) => event.type === 'model-text');
    const start = events.find((event) => event.type === 'turn-start');
    if (start === undefined || texts.length === 0) throw new Error('the recorded session has no streamed first turn');
    const showCursor = '\u001B[?25h';
    renderer.onEvent(start);
    // Everything but the END line: the spinner goes on.
    const whole = texts.map((event) => (event.type === 'model-text' ? event.delta : '')).join('');
    const end = whole.lastIndexOf('<<<NSENV:V4:END>>>');
    expect(end).toBeGreaterThan(0);
    const piece = (delta: string) => ({ ...texts[0], delta }) as LoopEvent;
    renderer.onEvent(piece(whole.slice(0, end)));
    renderer.onEvent(piece('<<<NSENV:V4:E'));
    expect(out).not.toContain(showCursor);
    // The END line completes: stopped (the cursor is back) before any reply event.
    renderer.onEvent(piece(whole.slice(end + '<<<NSENV:V4:E'.length)));
    expect(out).toContain(showCursor);
    const stoppedAt = out.length;
    renderer.onEvent(piece(' and the model talks on'));
    expect(out.length).toBe(stoppedAt);
    renderer.close();
  });
});

describe('budget left', () => {
  it("counts a turn's usage once when it has two decisions (an approval's pause, then its answer)", () => {
    let out = '';
    const renderer = createProgressRenderer({ stream: { write: (text) => (out += text) }, color: false, motion: false, ceilings: { tokens: 1000 } });
    const first = events.find((event) => event.type === 'decision');
    if (first?.type !== 'decision') throw new Error('the recorded session has no decision');
    const usage = { ...first.record.usage, inputTokens: 100, outputTokens: 20 };
    const pause = { ...first, decision: { kind: 'PAUSE', reason: 'AWAITING_APPROVAL', message: 'deploy?' }, record: { ...first.record, phase: 'awaiting-approval', usage } } as LoopEvent;
    renderer.onEvent(pause);
    expect(out).toContain('880 tokens');
    renderer.onEvent({ ...first, decision: { kind: 'CONTINUE' }, record: { ...first.record, usage } } as LoopEvent);
    expect(out.trimEnd().split('\n').at(-1)).toContain('880 tokens');
  });
});

describe('a failed model call', () => {
  it('says what a call cut short after streaming is estimated to have cost, and nothing for one that streamed nothing', () => {
    let out = '';
    const renderer = createProgressRenderer({ stream: { write: (text) => (out += text) }, color: false, motion: false });
    const base = { sid: 's', loopId: 'l', ts: '2026-11-28T00:00:00.000Z', turnIndex: 1, code: 'PROVIDER_SERVER', costUsd: 0 } as const;
    renderer.onEvent({ sid: 's', loopId: 'l', ts: base.ts, turnIndex: 1, type: 'turn-start', kind: 'normal' });
    expect(out).toBe('\nturn 1\n');
    out = '';
    renderer.onEvent({ ...base, type: 'call-failed', inputTokens: 0, outputTokens: 0 });
    expect(out).toBe('');
    renderer.onEvent({ ...base, type: 'call-failed', inputTokens: 1234, outputTokens: 56 });
    expect(out).toMatch(/model +failed after about 1,234 in → 56 out tokens \(estimated\)/);
  });
});

describe('turns: false', () => {
  it('prints no turn lines (the caller narrates them), only the summary', () => {
    let out = '';
    const renderer = createProgressRenderer({ stream: { write: (text) => (out += text) }, color: false, motion: false, turns: false });
    for (const event of events) renderer.onEvent(event);
    expect(out).toBe('');
    renderer.finish(result);
    expect(out).toMatch(/^\nDONE HELLO BIG WORLD\n/);
  });
});

describe('colour and motion', () => {
  it('colours a terminal unless NO_COLOR or TERM=dumb; FORCE_COLOR colours a pipe', () => {
    expect(shouldUseColor({ isTTY: true, env: {} })).toBe(true);
    expect(shouldUseColor({ isTTY: false, env: {} })).toBe(false);
    expect(shouldUseColor({ isTTY: true, env: { NO_COLOR: '1' } })).toBe(false);
    expect(shouldUseColor({ isTTY: true, env: { NO_COLOR: '' } })).toBe(true);
    expect(shouldUseColor({ isTTY: true, env: { TERM: 'dumb' } })).toBe(false);
    expect(shouldUseColor({ isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(shouldUseColor({ isTTY: false, env: { FORCE_COLOR: '0' } })).toBe(false);
  });

  it('moves only on an interactive terminal, never on CI', () => {
    expect(shouldUseMotion({ isTTY: true, env: {} })).toBe(true);
    expect(shouldUseMotion({ isTTY: false, env: {} })).toBe(false);
    expect(shouldUseMotion({ isTTY: true, env: { CI: 'true' } })).toBe(false);
    expect(shouldUseMotion({ isTTY: true, env: { TERM: 'dumb' } })).toBe(false);
  });

  it('never shows the first part of a key while the reply streams it, one character at a time', () => {
    const ci = process.env['CI'];
    delete process.env['CI'];
    onTestFinished(() => {
      if (ci !== undefined) process.env['CI'] = ci;
    });
    let out = '';
    const tty = { isTTY: true, columns: 200, write: (text: string) => (out += text), cursorTo: () => true, moveCursor: () => true, clearLine: () => true };
    const env = { OPENAI_API_KEY: 'sk-test-0123456789abcdefghij', SERVICE_TOKEN: 'plainvalue-9876543210' };
    const renderer = createProgressRenderer({ stream: tty, color: false, motion: true, redactStream: createStreamRedactor(env) });
    const start = events.find((event) => event.type === 'turn-start');
    const text = events.find((event) => event.type === 'model-text');
    if (start === undefined || text === undefined) throw new Error('the recorded session has no streamed turn');
    renderer.onEvent(start);
    for (const character of `keys: ${env.OPENAI_API_KEY} and ${env.SERVICE_TOKEN} done`) renderer.onEvent({ ...text, delta: character } as LoopEvent);
    renderer.close();
    expect(out).toContain('done');
    expect(out).toContain('[redacted]');
    // Not a single frame showed 4 or more characters of either key, nor the start of the key shape.
    for (const key of Object.values(env)) expect(out).not.toContain(key.slice(0, 4));
  });
});

