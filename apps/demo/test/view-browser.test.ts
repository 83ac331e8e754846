/**
 * The viewer in a real browser: Debian's Chromium (headless, through
 * playwright-core) loads a session stored by a real run and this test checks
 * what a person sees — the list, the turns, the program, the tool calls, the
 * decision — then watches a running session gain a turn, and shows that a
 * page reached through another host name (DNS rebinding) gets nothing.
 *
 * Skipped only when /usr/bin/chromium is missing outside CI; in CI (`.ci/run`
 * installs the `chromium` package) a missing browser fails the test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteTranscriptStore } from '@askloop/controller';
import { sampleRerunTurn, sampleUnfinishedTurn } from '@askloop/controller/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewer, type Viewer } from '../src/view/index.ts';
import { CHROMIUM_PATH, hasChromium, launchChromium, type ChromiumSession } from './launch-chromium.ts';
import { chartRenders, countChartRenders } from './count-chart-renders.ts';
import { createViewerFixture, FAKE_KEY, HOSTILE_EMIT, type ViewerFixture } from './view-fixture.ts';
import { seedSession, seedTurn } from './view-seed.ts';

const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
const REBIND_HOST = 'rebind.askloop.test';

it.runIf(!hasChromium() && inCi)('has Chromium in CI', () => {
  throw new Error(`${CHROMIUM_PATH} is missing: .ci/run installs the Debian package 'chromium'; install it (apt-get install chromium) so the viewer's browser test runs`);
});

describe.skipIf(!hasChromium())(`the viewer in Chromium${hasChromium() ? '' : ` — skipped: ${CHROMIUM_PATH} is not installed (apt-get install chromium)`}`, () => {
  let dir = '';
  let fixture: ViewerFixture;
  let viewer: Viewer;
  let browser: ChromiumSession;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'askloop-view-browser-'));
    fixture = await createViewerFixture(join(dir, 'sessions.db'));
    viewer = await startViewer({ store: fixture.store, pollMs: 100, env: { OPENAI_API_KEY: FAKE_KEY } });
    // The rebinding attack, for real: the browser resolves another name to the viewer's address.
    browser = await launchChromium({ extraArgs: [`--host-resolver-rules=MAP ${REBIND_HOST} 127.0.0.1`] });
    page = await browser.context.newPage();
    // A script error or a Content-Security-Policy violation shows up here.
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await viewer?.close();
    await fixture?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the sessions, opens one, and shows its turns as a person sees them', async () => {
    await page.goto(viewer.url);
    const doneRow = page.locator(`tr[data-sid="${fixture.done}"]`);
    await expect.poll(() => doneRow.innerText()).toContain('Count the words of the sentence and find the longest.');
    expect(await doneRow.innerText()).toMatch(/done\s+3\s/);
    expect(await page.locator(`tr[data-sid="${fixture.running}"]`).innerText()).toContain('running');

    await doneRow.click();
    await page.locator('li.turn[data-turn="3"]').waitFor();
    expect(page.url()).toBe(`${viewer.url}#/sessions/${fixture.done}`);
    const stats = await page.locator('.stats').innerText();
    expect(stats).toMatch(/TURNS\s+3/i);
    expect(stats).toMatch(/DECISION\s+DONE/i);
    // The scripted model has no prices: the cost is unknown, not "$0".
    expect(stats).toMatch(/COST\s+unknown/i);

    const turns = page.locator('li.turn');
    expect(await turns.count()).toBe(3);
    const first = await turns.nth(0).innerText();
    // The program with its line numbers, the tool calls with arguments and results, emits and whispers.
    expect(first).toMatch(/2\s+set words = tool\.str\.SplitWords\("the quick brown fox jumps over the lazy dog"\)/);
    expect(first).toMatch(/tool\.str\.SplitWords\s+"the quick brown fox jumps over the lazy dog"\s+\["the","quick","brown","fox","jumps","over","the","lazy","dog"\]/);
    // Tool calls are numbered from 1, as a person counts them.
    expect(await turns.nth(0).locator('table.calls tbody tr td').first().innerText()).toBe('1');
    expect(first).toContain('The sentence has 9 words.');
    expect(first).toContain('plan ← counted 9 words; next: the longest');
    expect(first).toMatch(/CONTINUE/);
    // The refused program: its diagnostic, the flagged line, and the repair decision.
    const second = await turns.nth(1).innerText();
    expect(second).toContain("3:8 SCRIPT_TOOL_UNKNOWN Unknown tool 'tool.str.Longest'");
    expect(await turns.nth(1).locator('.program .ln.flag').innerText()).toMatch(/3\s+emit tool\.str\.Longest\(words\)/);
    expect(second).toContain('next turn: repair');
    const third = await turns.nth(2).innerText();
    expect(third).toMatch(/DONE\s+result: 9 words; the longest is quick/);
    expect(third).toMatch(/tool\.math\.Add\s+9, 0\s+9/);
    expect(third).toMatch(/digest\s+[0-9a-f]{64}/);

    // The envelope is collapsed until asked for.
    // By its summary: the system text's block holds the word too ("Answer with one envelope").
    const envelope = turns.nth(2).locator('details', { has: page.locator('summary', { hasText: /^Envelope \(/ }) });
    expect(await envelope.locator('pre').isVisible()).toBe(false);
    await envelope.locator('summary').click();
    expect(await envelope.locator('pre').innerText()).toContain('<<<NSENV:V4:USERDATA>>>');

    // The charts: one bar group per turn.
    expect(await page.locator('svg[aria-label="Tokens per turn"] text').allTextContents()).toEqual(expect.arrayContaining(['1', '2', '3']));
    expect(await page.locator('svg[aria-label="Latency per turn"]').count()).toBe(1);
  });

  it('never shows a key, even with every section open', async () => {
    for (const summary of await page.locator('details > summary').all()) {
      if ((await summary.locator('..').getAttribute('open')) === null) await summary.click();
    }
    const text = await page.locator('body').innerText();
    expect(text).toContain('<<<NSENV:V4:START>>>');
    expect(text).not.toContain(FAKE_KEY);
    expect(await page.content()).not.toContain(FAKE_KEY);
  });

  it('follows a running session live', async () => {
    await page.goto(`${viewer.url}#/sessions/${fixture.running}`);
    await page.locator('li.turn[data-turn="1"]').waitFor();
    await page.locator('.live').waitFor();
    expect(await page.locator('.meta').innerText()).toMatch(/running\s+Live/);
    expect(await page.locator('li.turn').count()).toBe(1);

    // A turn written while the page is open (the viewer polls the store).
    await fixture.loop.step(fixture.running);
    const second = page.locator('li.turn[data-turn="2"]');
    await second.waitFor();
    await expect.poll(() => second.innerText()).toMatch(/DONE\s+result: live finished/);
    await page.locator('.live').waitFor({ state: 'detached' });
    expect(await page.locator('.meta .badge').innerText()).toBe('done');
    expect(await page.locator('.stats').innerText()).toMatch(/TURNS\s+2/i);
  });

  it('counts the decided turns as the list does: a turn paused for approval is not one yet', async () => {
    const sid = await seedSession(fixture.store, 'browser-paused', { turns: 1 });
    const session = await fixture.store.getSession(sid);
    const paused = { ...seedTurn(sid, 2), phase: 'awaiting-approval' as const, decision: { kind: 'PAUSE' as const, reason: 'AWAITING_APPROVAL' as const, message: 'tool.gated.Launch needs approval' }, approval: { state: 'pending' as const, message: 'tool.gated.Launch needs approval' } };
    await fixture.store.saveTurn(paused, { ...session!, status: 'paused', turns: 1, lastDecision: paused.decision });
    const fresh = await browser.context.newPage();
    await fresh.goto(viewer.url);
    expect(await fresh.locator(`tr[data-sid="${sid}"]`).innerText()).toMatch(/paused\s+1\b/);
    await fresh.goto(`${viewer.url}#/sessions/${sid}`);
    await fresh.locator('li.turn[data-turn="2"]').waitFor();
    // It showed 2, the stored records, where the list and askloop sessions said 1.
    expect(await fresh.locator('.stats').innerText()).toMatch(/TURNS\s+1\b/i);
    expect(await fresh.locator('.stat', { hasText: 'Turns' }).getAttribute('title')).toContain('1 more stored, not decided yet');
    await fresh.close();
  });

  it('fits a phone screen: the session list scrolls in its own box, not the page', async () => {
    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 390, height: 800 });
    await phone.goto(viewer.url);
    await phone.locator('table.sessions').waitFor();
    // It was 931 pixels wide: Status, Turns and Updated were off the screen.
    expect(await phone.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // A session's figures wrap rather than end in "…": "2,297 …" could not be read whole.
    await phone.goto(`${viewer.url}#/sessions/${fixture.done}`);
    await phone.locator('.stat .value').first().waitFor();
    const cut = await phone.locator('.stat .value').evaluateAll((values) => values.filter((value) => value.scrollWidth > value.clientWidth).map((value) => value.textContent));
    expect(cut).toEqual([]);
    // Nor is the page wider than the phone: a turn's tool calls made it 418 pixels wide.
    expect(await phone.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.close();
  });

  it('draws a long running session once, then each new turn once', async () => {
    const sid = await seedSession(fixture.store, 'browser-long-running', { turns: 60 });
    const fresh = await browser.context.newPage();
    await countChartRenders(fresh);
    await fresh.goto(`${viewer.url}#/sessions/${sid}`);
    await fresh.locator('li.turn[data-turn="60"]').waitFor();
    // Live once the feed's snapshot is in: the stored turns, already drawn, are not drawn again.
    await fresh.locator('.live').waitFor();
    // The latest 50 first (turns 11 to 60); the rest on request.
    expect(await fresh.locator('li.turn').count()).toBe(50);
    expect(await fresh.locator('li.turn').first().getAttribute('data-turn')).toBe('11');
    expect(await chartRenders(fresh)).toBe(1);
    // The chart labels every so many turns, its labels at least 24 units apart (it drew all 60 on one another).
    const labels = (await fresh.locator('.chart svg').first().locator('text[text-anchor="middle"]').evaluateAll((texts) => texts.map((text) => Number(text.getAttribute('x'))))) as number[];
    expect(labels.length).toBeGreaterThanOrEqual(10);
    expect(labels.length).toBeLessThan(60);
    for (let index = 1; index < labels.length; index += 1) expect((labels[index] as number) - (labels[index - 1] as number)).toBeGreaterThanOrEqual(23.9);
    const session = (await fixture.store.getSession(sid))!;
    await fixture.store.saveTurn(seedTurn(sid, 61), { ...session, turns: 61, updatedAt: new Date(Date.parse(session.updatedAt) + 1000).toISOString() });
    await fresh.locator('li.turn[data-turn="61"]').waitFor();
    expect(await fresh.locator('li.turn').count()).toBe(51);
    expect(await fresh.locator('li.turn').last().getAttribute('data-turn')).toBe('61');
    expect(await chartRenders(fresh)).toBe(2);
    await fresh.close();
  });

  it('shows the latest turns of a long session first, and earlier ones a page at a time when asked', async () => {
    const sid = await seedSession(fixture.store, 'browser-paged', { turns: 120, status: 'done' });
    const fresh = await browser.context.newPage();
    await fresh.goto(`${viewer.url}#/sessions/${sid}`);
    await fresh.locator('li.turn[data-turn="120"]').waitFor();
    const turns = fresh.locator('li.turn');
    expect(await turns.count()).toBe(50);
    expect(await turns.first().getAttribute('data-turn')).toBe('71');
    const more = fresh.locator('button.more-turns');
    expect(await more.innerText()).toBe('Show earlier turns (70 not loaded)');
    expect(await fresh.locator('.earlier .muted').innerText()).toBe('Showing turns 71 to 120 of this session, the latest first loaded.');
    // The totals count the session's 120 turns, not the 50 shown: the seeded turns use 40 fuel each.
    expect(await fresh.locator('.stat', { hasText: 'Turns' }).locator('.value').innerText()).toBe('120');
    await more.click();
    await expect.poll(() => turns.count()).toBe(100);
    expect(await turns.first().getAttribute('data-turn')).toBe('21');
    expect(await more.innerText()).toBe('Show earlier turns (20 not loaded)');
    await more.click();
    await expect.poll(() => turns.count()).toBe(120);
    expect(await turns.first().getAttribute('data-turn')).toBe('1');
    expect(await fresh.locator('button.more-turns').count()).toBe(0);
    // In order: 1 to 120.
    expect(await turns.evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-turn'))))).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    await fresh.close();
  });

  it('says what it cut of a huge turn, and shows it whole when asked', async () => {
    const sid = await seedSession(fixture.store, 'browser-huge-turn', { status: 'done' });
    const session = (await fixture.store.getSession(sid))!;
    await fixture.store.saveTurn({ ...seedTurn(sid, 1), output: `${'o'.repeat(512 * 1024 - 4)}END\n` }, { ...session, turns: 1 });
    const fresh = await browser.context.newPage();
    await fresh.goto(`${viewer.url}#/sessions/${sid}`);
    const note = fresh.locator('li.turn[data-turn="1"] .cut-note');
    await note.waitFor();
    expect(await note.innerText()).toBe(`Cut to keep the page light: OUTPUT (16,384 of 524,288 characters). Load the whole turn or run askloop show ${sid} --turn 1 --full`);
    const output = fresh.locator('li.turn[data-turn="1"] details', { hasText: 'OUTPUT (' });
    expect(await output.locator('summary').innerText()).toBe('OUTPUT (524,288 characters)');
    await output.locator('summary').click();
    expect((await output.locator('pre').innerText()).endsWith('… [cut: 524,288 characters in all]')).toBe(true);
    await note.locator('button.whole-turn').click();
    await expect.poll(() => note.count()).toBe(0);
    // Still open, as the person left it, and whole now.
    const whole = await fresh.locator('li.turn[data-turn="1"] details', { hasText: 'OUTPUT (' }).locator('pre').innerText();
    expect(whole.trimEnd().length).toBe(512 * 1024 - 1);
    expect(whole.trimEnd().endsWith('END')).toBe(true);
    await fresh.close();
  });

  it('keeps a turn loaded whole whole when the live feed sends it cut again, and reads it whole again when it changed', async () => {
    const sid = await seedSession(fixture.store, 'browser-huge-live-turn');
    const session = (await fixture.store.getSession(sid))!;
    const huge = { ...seedTurn(sid, 1), output: `${'o'.repeat(512 * 1024 - 4)}END\n` };
    await fixture.store.saveTurn(huge, { ...session, turns: 1 });
    // A viewer of its own, started again on its port below: the page's feed reconnects to it and is sent a snapshot.
    let feed = await startViewer({ store: fixture.store, pollMs: 100 });
    const fresh = await browser.context.newPage();
    try {
      await fresh.goto(`${feed.url}#/sessions/${sid}`);
      await fresh.locator('.live').waitFor();
      const note = fresh.locator('li.turn[data-turn="1"] .cut-note');
      const output = fresh.locator('li.turn[data-turn="1"] details', { hasText: 'OUTPUT (' });
      await note.locator('button.whole-turn').click();
      await expect.poll(() => note.count()).toBe(0);
      await output.locator('summary').click();
      expect((await output.locator('pre').innerText()).trimEnd().endsWith('oEND')).toBe(true);

      await feed.close();
      await fresh.locator('.live').waitFor({ state: 'detached' });
      feed = await startViewer({ store: fixture.store, pollMs: 100, port: feed.port });
      // Live again: the snapshot (the turn in it cut) is drawn, and the turn stays whole (the cut one came back, button and all).
      await fresh.locator('.live').waitFor({ timeout: 15_000 });
      expect(await note.count()).toBe(0);
      const whole = await output.locator('pre').innerText();
      expect(whole.trimEnd().length).toBe(512 * 1024 - 1);
      expect(whole.trimEnd().endsWith('END')).toBe(true);

      // Saved again, changed: the feed sends it cut, and the page reads the whole of it again.
      await fixture.store.saveTurn({ ...huge, output: `${'p'.repeat(600 * 1024)}CHANGED\n`, endedAt: '2026-01-01T00:00:09.000Z' }, { ...session, turns: 1, updatedAt: new Date().toISOString() });
      await expect.poll(() => output.locator('pre').innerText().then((text) => text.trimEnd().slice(-8)), { timeout: 10_000 }).toBe('pCHANGED');
      expect(await note.count()).toBe(0);
      expect(await output.locator('summary').innerText()).toBe('OUTPUT (614,408 characters)');
    } finally {
      await fresh.close();
      await feed.close();
    }
  });

  it('draws the first 50 tool calls of a turn, and the rest when asked', async () => {
    const sid = await seedSession(fixture.store, 'browser-many-calls');
    const session = (await fixture.store.getSession(sid))!;
    const toolCalls = Array.from({ length: 70 }, (_, index) => ({ index, name: 'tool.math.add', displayName: 'tool.math.Add', args: [index, 1], result: index + 1, durationMs: 1 }));
    await fixture.store.saveTurn({ ...seedTurn(sid, 1), toolCalls } as unknown as Parameters<typeof fixture.store.saveTurn>[0], { ...session, turns: 1 });
    const fresh = await browser.context.newPage();
    await fresh.goto(`${viewer.url}#/sessions/${sid}`);
    const rows = fresh.locator('li.turn[data-turn="1"] table.calls tbody tr');
    await expect.poll(() => rows.count()).toBe(50);
    const more = fresh.locator('li.turn[data-turn="1"] button.more-calls');
    expect(await more.innerText()).toBe('Show 20 more tool calls');
    await more.click();
    await expect.poll(() => rows.count()).toBe(70);
    expect(await rows.last().locator('td').first().innerText()).toBe('70');
    expect(await more.count()).toBe(0);
    await fresh.close();
  });

  it('marks a tool call still out when the run ended: unfinished, in its place, with the note that it may have acted', async () => {
    const sid = await seedSession(fixture.store, 'browser-unfinished-call');
    const session = (await fixture.store.getSession(sid))!;
    await fixture.store.saveTurn(sampleUnfinishedTurn(sid, 1), { ...session, turns: 1 });
    const fresh = await browser.context.newPage();
    await fresh.goto(`${viewer.url}#/sessions/${sid}`);
    const rows = fresh.locator('li.turn[data-turn="1"] table.calls tbody tr');
    await expect.poll(() => rows.count()).toBe(5);
    // The fourth call (a memory CAS) was cut by the cancel: no result, marked, with the record's note.
    const cas = rows.nth(3).locator('td');
    expect(await cas.nth(1).innerText()).toBe('tool.memory.CAS');
    expect(await cas.nth(3).getAttribute('class')).toBe('code unfinished');
    expect(await cas.nth(3).innerText()).toBe('unfinished: the run ended before this call returned; a write tool: it may have acted (check its target)');
    // The one the tool host gave up on at the run's deadline shows its code too.
    expect(await rows.nth(2).locator('td').nth(3).innerText()).toMatch(/^unfinished \(SCRIPT_TOOL_ERROR\): /);
    await fresh.close();
  });

  it('shows the calls earlier runs of a turn run again left unfinished, apart from its calls, each with its run', async () => {
    const sid = await seedSession(fixture.store, 'browser-rerun-turn');
    const session = (await fixture.store.getSession(sid))!;
    await fixture.store.saveTurn(sampleRerunTurn(sid, 1), { ...session, turns: 1 });
    const fresh = await browser.context.newPage();
    const scriptErrors: string[] = [];
    fresh.on('pageerror', (error) => scriptErrors.push(error.message));
    await fresh.goto(`${viewer.url}#/sessions/${sid}`);
    const turn = fresh.locator('li.turn[data-turn="1"]');
    const earlier = turn.locator('table.calls.earlier tbody tr');
    await expect.poll(() => earlier.count()).toBe(2);
    expect(await turn.locator('section', { has: fresh.locator('table.calls.earlier') }).locator('h3').textContent()).toBe('Unfinished in earlier runs of this turn');
    const cas = earlier.nth(0).locator('td');
    expect(await cas.nth(0).innerText()).toBe('run 1');
    expect(await cas.nth(2).innerText()).toBe('tool.memory.CAS');
    expect(await cas.nth(4).getAttribute('class')).toBe('code unfinished');
    expect(await cas.nth(4).innerText()).toBe('unfinished: the run ended before this call returned; a write tool: it may have acted (check its target)');
    expect(await earlier.nth(1).locator('td').first().innerText()).toBe('run 2');
    // This run's calls, in their own table: none unfinished, the write's result shown.
    const calls = turn.locator('table.calls:not(.earlier) tbody tr');
    expect(await calls.count()).toBe(2);
    expect(await calls.nth(1).locator('td').nth(3).innerText()).toBe('true');
    expect(scriptErrors).toEqual([]);
    await fresh.close();
  });

  it('opens a session from the start of its id in the address, and says when a start names several or none', async () => {
    for (const hash of [`#/sessions/${fixture.done.slice(0, 8)}`, `#${fixture.done.slice(0, 8)}`]) {
      await page.goto(`${viewer.url}#/`);
      await page.goto(`${viewer.url}${hash}`);
      await page.locator('li.turn[data-turn="3"]').waitFor();
      expect(page.url(), hash).toBe(`${viewer.url}#/sessions/${fixture.done}`);
      expect(await page.locator('#where').innerText()).toBe(`Session ${fixture.done}`);
    }
    await seedSession(fixture.store, 'beef0001-browser-one');
    await seedSession(fixture.store, 'beef0002-browser-two');
    await page.goto(`${viewer.url}#/sessions/beef000`);
    await expect.poll(() => page.locator('.error-banner').innerText()).toMatch(/'beef000' is the start of 2 session ids \((beef0001-browser-one, beef0002-browser-two|beef0002-browser-two, beef0001-browser-one)\); give more of it/);
    // The banner offers the list, searched for the prefix.
    await page.locator('.error-banner a').click();
    await expect.poll(() => page.locator('table.sessions tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { sid: string } }).dataset.sid).sort())).toEqual(['beef0001-browser-one', 'beef0002-browser-two']);
    expect(await page.getByRole('searchbox').inputValue()).toBe('beef000');
    await page.getByRole('searchbox').fill('');
    await expect.poll(() => page.locator('table.sessions tbody tr').count()).toBeGreaterThan(2);
    await page.goto(`${viewer.url}#beef0002`);
    await expect.poll(() => page.locator('.meta').innerText()).toContain('beef0002-browser-two');
    await page.goto(`${viewer.url}#/sessions/f00dfeed`);
    await expect.poll(() => page.locator('.error-banner').innerText()).toContain("no session 'f00dfeed' in the store");
  });

  it('shows model text as text: no markup, no script', async () => {
    await page.goto(`${viewer.url}#/sessions/${fixture.hostile}`);
    await page.locator('li.turn[data-turn="1"]').waitFor();
    expect(await page.locator('details[open]').count()).toBe(0);
    for (const summary of await page.locator('details > summary').all()) await summary.click();
    const text = await page.locator('#app').innerText();
    expect(text).toContain(HOSTILE_EMIT);
    expect(text).toContain('<b>bold?</b><script>window.pwned=4</script>');
    expect(text).toContain('<script>window.pwned=3</script>');
    expect(await page.locator('#app img, #app b, #app script').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();
  });

  it('shows bidi overrides and other control characters as marks, and leaves Arabic, Hebrew and emoji alone', async () => {
    const spoof = 'invoice_\u202Efdp.exe';
    const ordinary = 'مرحبا بالعالم · שלום עולם · 👨\u200d👩\u200d👧 🎉';
    const sid = await seedSession(fixture.store, 'browser-controls', { status: 'done', task: `task ${spoof}`, turns: 1, emits: [spoof, ordinary, 'bell\u0007 nul\u0000 c1\u009b end'] });
    await page.goto(`${viewer.url}#/`);
    const row = page.locator(`tr[data-sid="${sid}"]`);
    await row.waitFor();
    expect(await row.locator('td.task .ctl').innerText()).toBe('⟨U+202E⟩');
    expect(await row.locator('td.task').getAttribute('title')).toBe('task invoice_⟨U+202E⟩fdp.exe');
    await page.goto(`${viewer.url}#/sessions/${sid}`);
    const emits = page.locator('li.turn[data-turn="1"] .emit');
    await emits.first().waitFor();
    expect(await page.locator('h1').innerText()).toBe('task invoice_⟨U+202E⟩fdp.exe');
    // The override itself never reaches the page, so the text after it reads as stored: "fdp.exe", left to right.
    const spoofed = emits.nth(0);
    expect(await spoofed.textContent()).toBe('invoice_⟨U+202E⟩fdp.exe');
    expect(await spoofed.locator('.ctl').count()).toBe(1);
    expect(await spoofed.locator('.ctl').getAttribute('title')).toContain('RIGHT-TO-LEFT OVERRIDE');
    const order = await spoofed.evaluate((node) => {
      // The text node after the mark: where its first and last letters are drawn.
      const text = (node as unknown as { lastChild: { textContent: string } }).lastChild;
      const range = (globalThis as unknown as { document: { createRange(): { setStart(n: unknown, o: number): void; setEnd(n: unknown, o: number): void; getBoundingClientRect(): { left: number } } } }).document.createRange();
      const leftOf = (offset: number) => {
        range.setStart(text, offset);
        range.setEnd(text, offset + 1);
        return range.getBoundingClientRect().left;
      };
      return { text: text.textContent, first: leftOf(0), last: leftOf(text.textContent.length - 1) };
    });
    expect(order.text).toBe('fdp.exe');
    expect(order.first).toBeLessThan(order.last);
    // Ordinary right-to-left text and emoji (with their joiners) are shown as they are.
    expect(await emits.nth(1).textContent()).toBe(ordinary);
    expect(await emits.nth(1).locator('.ctl').count()).toBe(0);
    expect(await emits.nth(2).textContent()).toBe('bell⟨U+0007⟩ nul⟨U+0000⟩ c1⟨U+009B⟩ end');
    // The id in the address is untrusted too.
    await page.goto(`${viewer.url}#/sessions/${encodeURIComponent('\u202Eabcd')}`);
    await expect.poll(() => page.locator('#where').innerText()).toBe('Session ⟨U+202E⟩abcd');
    await expect.poll(() => page.locator('.error-banner .ctl').count()).toBe(1);
    expect(await page.title()).toBe('AskLoop session ⟨U+202E⟩abcd');
  });

  it('reaches every session of a long list, a page at a time or by a search', async () => {
    const listStore = createSqliteTranscriptStore(join(dir, 'list.db'));
    for (let n = 1; n <= 5; n++) await seedSession(listStore, `list-${n}`, { agent: n === 2 ? 'oddball' : 'worker', task: `Listed task ${n}`, createdAt: `2026-11-27T00:00:0${n}.000Z` });
    const listViewer = await startViewer({ store: listStore, listLimit: 2 });
    const rows = () => page.locator('table.sessions tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { sid: string } }).dataset.sid));
    try {
      await page.goto(listViewer.url);
      await expect.poll(rows).toEqual(['list-5', 'list-4']);
      const older = page.getByRole('button', { name: 'Older →' });
      const newer = page.getByRole('button', { name: '← Newer' });
      expect(await newer.isDisabled()).toBe(true);
      await older.click();
      await expect.poll(rows).toEqual(['list-3', 'list-2']);
      expect(await page.locator('.pager').innerText()).toContain('3–4');
      await older.click();
      await expect.poll(rows).toEqual(['list-1']);
      expect(await older.isDisabled()).toBe(true);
      // The oldest opens, and "All sessions" comes back to the same page.
      await page.locator('tr[data-sid="list-1"] a').click();
      await page.locator('.meta').waitFor();
      await page.locator('.crumbs a').click();
      await expect.poll(rows).toEqual(['list-1']);
      await newer.click();
      await expect.poll(rows).toEqual(['list-3', 'list-2']);
      // A search the server runs, from the first page of its answers.
      await page.getByRole('searchbox').fill('ODDBALL');
      await expect.poll(rows).toEqual(['list-2']);
      expect(await page.locator('.pager').isVisible()).toBe(false);
      await page.getByRole('searchbox').fill('no such thing');
      await expect.poll(() => page.locator('#app .empty').innerText()).toBe('No session matches.');
      await page.getByRole('searchbox').fill('');
      await page.getByRole('combobox', { name: 'Status' }).selectOption('done');
      await expect.poll(() => page.locator('#app .empty').innerText()).toBe('No session matches.');
      await page.getByRole('combobox', { name: 'Status' }).selectOption('');
      await expect.poll(rows).toEqual(['list-5', 'list-4']);
      // The address holds the search and the page: a reload (or the link) shows the same list, search box filled.
      await page.getByRole('searchbox').fill('task');
      await expect.poll(() => page.url()).toContain('#/?q=task');
      await older.click();
      await expect.poll(rows).toEqual(['list-3', 'list-2']);
      expect(page.url()).toContain('#/?q=task&offset=2');
      await page.reload();
      await expect.poll(rows).toEqual(['list-3', 'list-2']);
      expect(await page.getByRole('searchbox').inputValue()).toBe('task');
      await page.goto(`${listViewer.url}#/?status=done`);
      await expect.poll(() => page.locator('#app .empty').innerText()).toBe('No session matches.');
      expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('done');
      // A viewer that stopped: the page says so and what to do, not a bare "Failed to fetch".
      await listViewer.close();
      await expect.poll(() => page.locator('#app .error-banner').innerText(), { timeout: 6000 }).toContain('The viewer is not answering: it was stopped, or started again on another port');
    } finally {
      await listViewer.close();
      await listStore.close();
    }
  });

  it("keeps a keyboard user's place through the list's refresh every 2 s, also when a new session arrives", async () => {
    const focusStore = createSqliteTranscriptStore(join(dir, 'focus.db'));
    for (let n = 1; n <= 4; n++) await seedSession(focusStore, `focus-${n}`, { task: `Focus task ${n}`, createdAt: `2026-11-27T00:00:0${n}.000Z` });
    const focusViewer = await startViewer({ store: focusStore });
    /** The page's focused element, as the browser has it (these tests are typed without the DOM's types). */
    type Focused = { readonly tagName: string; closest(selector: string): { readonly dataset: { readonly sid: string } } | null } | null;
    const focusedSid = () => page.evaluate(() => {
      const active = (globalThis as unknown as { document: { activeElement: Focused } }).document.activeElement;
      return active?.closest('tr')?.dataset.sid ?? active?.tagName;
    });
    try {
      await page.goto(focusViewer.url);
      const link = page.locator('tr[data-sid="focus-2"] a');
      await link.focus();
      await page.evaluate(() => {
        const scope = globalThis as unknown as { marked: unknown; document: { activeElement: unknown } };
        scope.marked = scope.document.activeElement;
      });
      // Two refreshes of the same rows: the very same link keeps the focus (it used to go to BODY).
      await page.waitForTimeout(4500);
      expect(await focusedSid()).toBe('focus-2');
      expect(await page.evaluate(() => {
        const scope = globalThis as unknown as { marked: unknown; document: { activeElement: unknown } };
        return scope.document.activeElement === scope.marked;
      })).toBe(true);
      // A new session redraws the rows: the focus comes back to the same session's link.
      await seedSession(focusStore, 'focus-5', { task: 'Focus task 5', createdAt: '2026-11-27T00:00:05.000Z' });
      await expect.poll(() => page.locator('tr[data-sid="focus-5"]').count(), { timeout: 6000 }).toBe(1);
      expect(await focusedSid()).toBe('focus-2');
      await page.keyboard.press('Tab');
      expect(await focusedSid()).toBe('focus-1');
    } finally {
      await focusViewer.close();
      await focusStore.close();
    }
  });

  it('says when no host runs a running session (its host died), with the command that continues it, and drops the Live badge', async () => {
    const sid = await seedSession(fixture.store, 'orphan-page', { createdAt: new Date(Date.now() - 60_000).toISOString() });
    // A host that died: its lease (of 1 ms here) lapsed, never given up.
    await fixture.store.acquireLease!(sid, 'dead-host', 1);
    await page.goto(`${viewer.url}#/sessions/${sid}`);
    await expect.poll(() => page.locator('.orphaned').count()).toBe(1);
    expect(await page.locator('.orphaned').innerText()).toBe(`No host is running this session: the one that ran it stopped (it crashed or was killed) and its lease has lapsed. askloop resume ${sid} continues it where it stopped.`);
    expect(await page.locator('.meta .live').count()).toBe(0);
  });

  // Walkthrough: an address past the last page said "No sessions yet" on a store that has them.
  it('says a page past the end of the list is empty, not the store, and leads back to the first page', async () => {
    await page.goto(`${viewer.url}#/?offset=5000`);
    await expect.poll(() => page.locator('.panel.empty').innerText()).toBe('No sessions this far into the list. Back to the first page');
    await page.locator('.panel.empty a').click();
    await expect.poll(() => page.locator(`tr[data-sid="${fixture.done}"]`).count()).toBe(1);
  });

  // Walkthrough: a session resumed after a Ctrl-C read "running ERR_CANCELLED" in the list and DECISION HALT on its page.
  it('shows a session resumed after a halt as running, not halted', async () => {
    const sid = await seedSession(fixture.store, 'resumed-after-halt', { turns: 1, lastDecision: { kind: 'HALT', reason: 'ERR_CANCELLED', message: 'aborted by the caller' } });
    await page.goto(`${viewer.url}#/`);
    const row = page.locator(`tr[data-sid="${sid}"]`);
    await expect.poll(() => row.innerText()).toContain('running');
    expect(await row.innerText()).not.toContain('ERR_CANCELLED');
    await page.goto(`${viewer.url}#/sessions/${sid}`);
    await expect.poll(() => page.locator('.stats').innerText()).toMatch(/DECISION\s+running/i);
    expect(await page.locator('.stats .stat').filter({ hasText: /decision/i }).getAttribute('title')).toContain('resumed after ERR_CANCELLED');
  });

  // Walkthrough: each turn of a model without prices said "cost $0" (free) while the header said unknown.
  it("says a turn's cost is unknown when its model has no prices", async () => {
    await page.goto(`${viewer.url}#/sessions/${fixture.done}`);
    const first = page.locator('li.turn[data-turn="1"]');
    await first.waitFor();
    for (const summary of await first.locator('details > summary').all()) {
      if ((await summary.locator('..').getAttribute('open')) === null) await summary.click();
    }
    expect(await first.innerText()).toMatch(/cost\s+unknown \(the model has no prices\)/);
    expect(await first.innerText()).not.toMatch(/cost\s+\$0/);
  });

  // Walkthrough: "updated 0 s ago" stayed so for good once a session stopped changing.
  it('keeps counting how long ago a session was updated', async () => {
    const aged = await browser.context.newPage();
    try {
      await aged.clock.install();
      await aged.goto(`${viewer.url}#/sessions/${fixture.done}`);
      const meta = aged.locator('.meta');
      await expect.poll(() => meta.innerText()).toMatch(/updated \d+ (s|min|h|d) ago/);
      const before = /updated ([^\n]+? ago)/.exec(await meta.innerText())?.[1];
      await aged.clock.fastForward(2 * 3600 * 1000);
      await expect.poll(async () => /updated ([^\n]+? ago)/.exec(await meta.innerText())?.[1]).not.toBe(before);
      expect(await meta.innerText()).toMatch(/updated ([2-9]|\d\d+) h ago|updated \d+ d ago/);
    } finally {
      await aged.close();
    }
  });

  it('follows a halted session (a resume may continue it), and holds no feed while the tab is hidden', async () => {
    const sid = await seedSession(fixture.store, 'halted-followed', { status: 'halted', turns: 1 });
    // From the list, which holds no feed: the session page before it may have held one.
    await page.goto(`${viewer.url}#/`);
    await expect.poll(() => viewer.liveFeeds()).toBe(0);
    const feedsBefore = viewer.liveFeeds();
    await page.goto(`${viewer.url}#/sessions/${sid}`);
    await expect.poll(() => viewer.liveFeeds()).toBe(feedsBefore + 1);
    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        const doc = (globalThis as unknown as { document: { dispatchEvent(event: unknown): void } }).document;
        Object.defineProperty(doc, 'hidden', { value, configurable: true });
        doc.dispatchEvent(new (globalThis as unknown as { Event: new (type: string) => unknown }).Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    await expect.poll(() => viewer.liveFeeds()).toBe(feedsBefore);
    await setHidden(false);
    await expect.poll(() => viewer.liveFeeds()).toBe(feedsBefore + 1);
    await page.goto(`${viewer.url}#/`);
    await expect.poll(() => viewer.liveFeeds()).toBe(feedsBefore);
  });

  it('marks a turn resume ran again, and shows the time its earlier runs took', async () => {
    const sid = await seedSession(fixture.store, 'rerun-session', { turns: 1 });
    const once = seedTurn(sid, 2);
    // What a turn reopened twice after a HALT looks like when it is decided: its earlier runs' time counted in the total.
    await fixture.store.saveTurn({ ...once, reruns: 2, timings: { ...once.timings, earlier: 1500, total: (once.timings.total ?? 0) + 1500 } });
    await page.goto(`${viewer.url}#/sessions/${sid}`);
    const rerun = page.locator('li.turn[data-turn="2"]');
    await rerun.waitFor();
    expect(await rerun.locator('.turn-head').innerText()).toContain('run again ×2');
    expect(await rerun.innerText()).toMatch(/timings\s+earlier runs 1\.50 s, compose 1 ms/);
    // A turn that ran once says nothing of it.
    const first = await page.locator('li.turn[data-turn="1"]').innerText();
    expect(first).not.toContain('run again');
    expect(first).not.toContain('earlier runs');
  });

  it('marks a turn whose run stopped mid-turn and was continued (interrupted), saying what that means on hover', async () => {
    const sid = await seedSession(fixture.store, 'interrupted-session', { turns: 1 });
    const once = seedTurn(sid, 2);
    await fixture.store.saveTurn({ ...once, interrupted: [{ phase: 'executing', at: '2026-01-02T03:04:05.000Z' }] });
    await page.goto(`${viewer.url}#/sessions/${sid}`);
    const cut = page.locator('li.turn[data-turn="2"] .turn-head .badge', { hasText: 'interrupted' });
    await cut.waitFor();
    expect(await cut.innerText()).toBe('interrupted');
    expect(await cut.getAttribute('title')).toBe('a run stopped mid-program; the program ran again from its start at 2026-01-02T03:04:05.000Z: a call with effects outside the store may have acted once per run');
    expect(await page.locator('li.turn[data-turn="1"]').innerText()).not.toContain('interrupted');
  });

  it('counts the older stopped runs a record no longer lists (interruptedDropped) in the interrupted badge', async () => {
    const sid = await seedSession(fixture.store, 'interrupted-often', { turns: 1 });
    const often = seedTurn(sid, 2);
    await fixture.store.saveTurn({ ...often, interrupted: [{ phase: 'asking', at: '2026-01-02T03:04:05.000Z' }], interruptedDropped: 40 });
    await page.goto(`${viewer.url}#/sessions/${sid}`);
    const cut = page.locator('li.turn[data-turn="2"] .turn-head .badge', { hasText: 'interrupted' });
    await cut.waitFor();
    expect(await cut.innerText()).toBe('interrupted ×41');
    expect(await cut.getAttribute('title')).toBe('40 earlier runs stopped mid-turn too (the record lists the latest 1)\na run stopped before its program started; continued at 2026-01-02T03:04:05.000Z');
  });

  it('keeps long text without spaces inside the page width, on the list and on a session', async () => {
    const overflow = () =>
      page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
    await page.goto(`${viewer.url}#/`);
    await page.locator(`tr[data-sid="${fixture.sprawling}"]`).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.goto(`${viewer.url}#/sessions/${fixture.sprawling}`);
    await page.locator('li.turn[data-turn="1"]').waitFor();
    for (const summary of await page.locator('details > summary').all()) await summary.click();
    expect(await overflow()).toBeLessThanOrEqual(0);
    // Nor down the page: the 5,000-character task is a heading of its first 300 (the rest in its tooltip; it was a
    // 6,844-pixel heading at 20,000), and a long emit scrolls in its own box (one of 120,000 was 40,296 pixels tall).
    const heading = page.locator('#app h1');
    expect((await heading.innerText()).length).toBe(301);
    expect(((await heading.getAttribute('title')) ?? '').length).toBe(5000);
    for (const box of await page.locator('.emit').all()) expect((await box.boundingBox())?.height ?? 0).toBeLessThanOrEqual(400);
  });

  it("does no work for another site's page, and opens from a link on one", async () => {
    const sid = await seedSession(fixture.store, 'cross-site-feed', { status: 'running', turns: 1 });
    // A viewer whose store counts what it is asked.
    let reads = 0;
    const counted = new Proxy(fixture.store, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          reads += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const watched = await startViewer({ store: counted, pollMs: 100 });
    // Another site's page (its name mapped to the loopback address too) that asks the viewer for the list, a session
    // and its live feed without CORS: it cannot read the answers, but the viewer used to read the store for it each
    // time (a long session whole), and time how long that took.
    const paths = ['api/sessions', `api/sessions/${sid}`, `api/sessions/${sid}/live`].map((path) => watched.url + path);
    const attacker = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<!doctype html><a id="open" href="${watched.url}">viewer</a><script>
        window.answers = [];
        ${JSON.stringify(paths)}.forEach(function (path) {
          fetch(path, { mode: 'no-cors' }).then(function (r) { window.answers.push(r.type); }, function (e) { window.answers.push(String(e)); });
        });
      </script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(`http://${REBIND_HOST}:${(attacker.address() as AddressInfo).port}/`);
      await expect.poll(() => page.evaluate(() => (globalThis as { answers?: unknown[] }).answers?.length ?? 0)).toBe(3);
      expect(reads).toBe(0);
      expect(watched.liveFeeds()).toBe(0);
      // A person following a link from another site's page gets the viewer, and its page works.
      await page.locator('#open').click();
      await expect.poll(() => page.locator(`tr[data-sid="${sid}"]`).count()).toBe(1);
      expect(reads).toBeGreaterThan(0);
    } finally {
      attacker.closeAllConnections();
      await new Promise((resolve) => attacker.close(resolve));
      await watched.close();
    }
  });

  it('gives a page reached through another host name nothing (DNS rebinding)', async () => {
    const response = await page.goto(`http://${REBIND_HOST}:${viewer.port}/api/sessions`);
    expect(response?.status()).toBe(403);
    const text = await page.locator('body').innerText();
    expect(text).toContain('VIEW_HOST_REFUSED');
    expect(text).not.toContain(fixture.done);
    const pageResponse = await page.goto(`http://${REBIND_HOST}:${viewer.port}/`);
    expect(pageResponse?.status()).toBe(403);
  });

  it('ran without a script error or a Content-Security-Policy violation', () => {
    // The rebinding test's 403s, the prefix test's 409 and 404, the list test's requests to the viewer it stopped and the
    // other site's page's requests (which the viewer's Cross-Origin-Resource-Policy keeps from that page) are the only
    // expected console errors (the browser logs every failed request).
    expect(problems.filter((problem) => !/^console: Failed to load resource: (the server responded with a status of (403|404|409) |net::ERR_CONNECTION_REFUSED|net::ERR_BLOCKED_BY_RESPONSE\.NotSameOrigin)/.test(problem))).toEqual([]);
  });
});
