/**
 * The viewer sends a session's turns a page at a time, each turn cut to its
 * limits, over real loopback HTTP and a real SQLite file. It sent every turn
 * whole: 10,000 turns of 8 KB of system text were a 105 MB answer, and 1,100
 * turns of a 512 KiB OUTPUT a 500 (`Invalid string length`) after seconds at
 * gigabytes, and a live feed of them ended the viewer's process.
 */
import type { TurnRecord } from '@askloop/controller';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewer, type Viewer } from '../src/view/index.ts';
import { PAGE_CHARS, PAGE_TURNS } from '../src/view/turn-page.ts';
import { TURN_LIMITS } from '../src/view/bound-turn.ts';
import { tempFolder } from './temp-folder.ts';
import { FAKE_KEY } from './view-fixture.ts';
import { seedSession, seedTurn, sessionsFileIn } from './view-seed.ts';

const { store } = sessionsFileIn(tempFolder('view-pages'));
let viewer: Viewer;

/** A turn of `sid` with a 512 KiB OUTPUT (a long report), a tool result of 5,000 numbers and 300 tool calls. */
function hugeTurn(sid: string, index: number): TurnRecord {
  const turn = seedTurn(sid, index);
  const call = turn.toolCalls[0] ?? { index: 0, name: 'tool.str.split', args: [], durationMs: 1 };
  const calls = Array.from({ length: 300 }, (_, i) => ({ ...call, index: i, args: [`call ${i}`], result: i === 0 ? Array.from({ length: 5_000 }, (_, n) => n) : i }));
  return { ...turn, output: `${'o'.repeat(512 * 1024 - 4)}END\n`, toolCalls: calls };
}

beforeAll(async () => {
  await seedSession(store, 'paged-120', { turns: 120, status: 'done' });
  await seedSession(store, 'huge-turns', { status: 'done' });
  const row = (await store.getSession('huge-turns'))!;
  for (let index = 1; index <= 3; index++) await store.saveTurn(hugeTurn('huge-turns', index), { ...row, turns: index });
  // Turns of about 200 KB each as sent (twelve texts of 16 Ki characters): fifty of them would be 10 MB.
  await seedSession(store, 'wide-turns', { turns: 60, status: 'done', emits: Array.from({ length: 12 }, (_, i) => `${i}`.repeat(20_000)) });
  viewer = await startViewer({ store, pollMs: 20, env: { OPENAI_API_KEY: FAKE_KEY } });
});
afterAll(async () => {
  await viewer?.close();
  await store.close();
});

interface Page {
  session: { sid: string; turns: number };
  turns: (TurnRecord & { cut?: { path: string; kind: string; size: number; kept: number }[] })[];
  page: { from: number | null; to: number | null; earlier: number };
}

async function get(path: string): Promise<{ status: number; text: string; body: Page & { error?: { code: string; message: string }; turn?: TurnRecord } }> {
  const response = await fetch(new URL(path, viewer.url));
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) };
}

/** The live feed's first message. */
async function snapshot(sid: string): Promise<{ data: Page; size: number }> {
  const controller = new AbortController();
  const response = await fetch(new URL(`/api/sessions/${sid}/live`, viewer.url), { signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the feed ended without a snapshot');
      buffer += decoder.decode(value, { stream: true });
      const start = buffer.indexOf('event: snapshot\ndata: ');
      const end = start < 0 ? -1 : buffer.indexOf('\n\n', start);
      if (end >= 0) {
        const data = buffer.slice(start + 'event: snapshot\ndata: '.length, end);
        return { data: JSON.parse(data) as Page, size: data.length };
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    controller.abort();
  }
}

const indexes = (page: Page) => page.turns.map((turn) => turn.turnIndex);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("a session's turns, a page at a time", () => {
  it('sends the latest turns and how many come before, and the earlier ones on request, down to the first', async () => {
    const latest = (await get('/api/sessions/paged-120')).body;
    expect(PAGE_TURNS).toBe(50);
    expect(indexes(latest)).toEqual(range(71, 120));
    expect(latest.page).toEqual({ from: 71, to: 120, earlier: 70 });
    expect(latest.session.turns).toBe(120);
    const earlier = (await get('/api/sessions/paged-120?before=71')).body;
    expect(indexes(earlier)).toEqual(range(21, 70));
    expect(earlier.page).toEqual({ from: 21, to: 70, earlier: 20 });
    const first = (await get('/api/sessions/paged-120?before=21')).body;
    expect(indexes(first)).toEqual(range(1, 20));
    expect(first.page.earlier).toBe(0);
    expect((await get('/api/sessions/paged-120?before=1')).body).toMatchObject({ turns: [], page: { from: null, to: null, earlier: 0 } });
  });

  it('refuses a before or a turn that is no turn number with VIEW_BAD_REQUEST, and a turn the session lacks with VIEW_TURN_NOT_FOUND', async () => {
    for (const path of ['/api/sessions/paged-120?before=0', '/api/sessions/paged-120?before=x', '/api/sessions/paged-120?before=2147483648', '/api/sessions/paged-120/turns/0', '/api/sessions/paged-120/turns/-1', '/api/sessions/paged-120/turns/']) {
      const { status, body } = await get(path);
      expect(status, path).toBe(400);
      expect(body.error?.code, path).toBe('VIEW_BAD_REQUEST');
    }
    expect((await get('/api/sessions/paged-120?before=x')).body.error?.message).toBe('before must be a turn number, a whole number from 1 to 2147483647, got "x": ?before=N asks for the turns before turn N');
    const missing = await get('/api/sessions/paged-120/turns/121');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({ code: 'VIEW_TURN_NOT_FOUND', message: 'session paged-120 has no turn 121; its page lists the turns it has' });
  });

  it('cuts a turn past its limits with a mark and says what it cut; /turns/N sends it whole', async () => {
    const { body, text } = await get('/api/sessions/huge-turns');
    expect(text.length).toBeLessThan(3 * 400 * 1024);
    const [turn] = body.turns;
    expect(turn?.output.length).toBeLessThan(TURN_LIMITS.fieldChars + 100);
    expect(turn?.output.endsWith('\n… [cut: 524,288 characters in all]')).toBe(true);
    expect(turn?.cut).toEqual(
      expect.arrayContaining([
        { path: 'output', kind: 'text', size: 512 * 1024, kept: TURN_LIMITS.fieldChars },
        { path: 'toolCalls', kind: 'list', size: 300, kept: TURN_LIMITS.listItems },
        expect.objectContaining({ path: 'toolCalls.0.result', kind: 'json' }),
      ]),
    );
    expect(turn?.toolCalls).toHaveLength(TURN_LIMITS.listItems);
    // A tool's result is cut as the text of its JSON: its shape may be anything.
    expect(typeof turn?.toolCalls[0]?.result).toBe('string');
    expect(String(turn?.toolCalls[0]?.result).startsWith('[0,1,2,3,')).toBe(true);
    const whole = (await get('/api/sessions/huge-turns/turns/2')).body.turn!;
    expect(whole.output).toBe(`${'o'.repeat(512 * 1024 - 4)}END\n`);
    expect(whole.toolCalls).toHaveLength(300);
    expect(whole).toEqual(await store.listTurnRange!('huge-turns', { from: 2, to: 2 }).then(([stored]) => stored));
  });

  it('keeps a page within its size: the latest turns that fit, and how many come before', async () => {
    const { body, text } = await get('/api/sessions/wide-turns');
    expect(text.length).toBeLessThan(PAGE_CHARS + 400 * 1024);
    expect(body.turns.length).toBeGreaterThan(1);
    expect(body.turns.length).toBeLessThan(PAGE_TURNS);
    expect(body.turns.at(-1)?.turnIndex).toBe(60);
    expect(body.page).toEqual({ from: 61 - body.turns.length, to: 60, earlier: 60 - body.turns.length });
  });

  it('redacts a key before it cuts: a cut through it leaves no start of it', async () => {
    const sid = await seedSession(store, 'key-at-the-cut');
    const row = (await store.getSession(sid))!;
    await store.saveTurn({ ...seedTurn(sid, 1), output: `${'x'.repeat(TURN_LIMITS.fieldChars - 12)}${FAKE_KEY} and more ${'y'.repeat(20_000)}` }, { ...row, turns: 1 });
    const { text } = await get(`/api/sessions/${sid}`);
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(FAKE_KEY.slice(0, 10));
  });

  it('sends the live feed the latest page too, cut the same way', async () => {
    const long = await snapshot('paged-120');
    expect(indexes(long.data)).toEqual(range(71, 120));
    expect(long.data.page).toEqual({ from: 71, to: 120, earlier: 70 });
    const huge = await snapshot('huge-turns');
    expect(huge.size).toBeLessThan(3 * 400 * 1024);
    expect(huge.data.turns[0]?.cut).toContainEqual({ path: 'output', kind: 'text', size: 512 * 1024, kept: TURN_LIMITS.fieldChars });
  });
});
