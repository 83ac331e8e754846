/**
 * The viewer page's script, inlined into the page. Vanilla JavaScript, no
 * framework and no external request. Every text that comes from a record
 * (model replies, programs, tool results — untrusted) reaches the page only
 * through `setText` (text nodes, its control characters as visible marks:
 * visible-controls.ts), `markControls` for tooltips and titles, or an SVG
 * attribute, never `innerHTML`, so no record can inject markup or script,
 * nor reorder or hide its text. (Kept free of backticks and dollar-brace so
 * it can live in this raw template.)
 */

import { VISIBLE_TEXT_SCRIPT } from './visible-controls.ts';
import { LIST_SCRIPT } from './viewer-list-script.ts';

/** The helpers, one session's view, its charts and its turns; {@link VIEWER_SCRIPT} joins it with the other parts. */
const PAGE_SCRIPT = String.raw`
  var app = document.getElementById('app');
  var where = document.getElementById('where');
  var SVG = 'http://www.w3.org/2000/svg';
  var current = { stop: function () {} };
  var openState = new Map();

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) setText(node, text);
    return node;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]);
    return parent;
  }
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    for (var key in attrs) node.setAttribute(key, String(attrs[key]));
    if (text !== undefined) node.textContent = markControls(text);
    return node;
  }
  function getJson(path) {
    return fetch(path, { headers: { accept: 'application/json' } }).catch(function () {
      // No answer at all ("Failed to fetch"): the viewer is gone, or runs again elsewhere (each run picks a new port).
      throw new Error('The viewer is not answering: it was stopped, or started again on another port (askloop view --port N keeps one address). Start it, then open the address it prints.');
    }).then(function (response) {
      return response.json().then(function (body) {
        if (response.ok) return body;
        var error = new Error(body && body.error ? body.error.code + ': ' + body.error.message : 'HTTP ' + response.status);
        error.code = body && body.error ? body.error.code : '';
        throw error;
      });
    });
  }
  function sessionHref(sid) { return '#/sessions/' + encodeURIComponent(sid); }
  function fmtInt(n) { return (Number(n) || 0).toLocaleString('en-US'); }
  function fmtMs(ms) {
    if (ms === undefined || ms === null) return '–';
    if (ms < 1000) return Math.round(ms) + ' ms';
    return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
  }
  function fmtCost(usd) { return usd > 0 ? '$' + usd.toFixed(usd < 0.01 ? 4 : 2) : '$0'; }
  function age(iso) {
    var seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
    if (seconds < 60) return Math.floor(seconds) + ' s ago';
    if (seconds < 3600) return Math.floor(seconds / 60) + ' min ago';
    if (seconds < 86400) return Math.floor(seconds / 3600) + ' h ago';
    return Math.floor(seconds / 86400) + ' d ago';
  }
  function json(value) { return JSON.stringify(value); }
  function badge(text, cls) { return el('span', 'badge ' + (cls || text), text); }
  function decisionText(decision) {
    if (!decision) return '';
    if (decision.kind === 'DONE') return decision.result === null ? 'no result' : 'result: ' + decision.result;
    if (decision.kind === 'HALT' || decision.kind === 'PAUSE') return decision.reason + (decision.message ? ' — ' + decision.message : '');
    return decision.next ? 'next turn: ' + decision.next : 'next turn';
  }
  function section(title) { var node = el('section'); add(node, el('h3', null, title)); return node; }
  function collapsible(key, summary, text) {
    var node = el('details');
    node.open = openState.get(key) === true;
    node.addEventListener('toggle', function () { openState.set(key, node.open); });
    add(node, el('summary', null, summary), el('pre', null, text));
    return node;
  }

  // ---- one session ----
  function showSession(sid) {
    setText(where, 'Session ' + sid);
    document.title = markControls('AskLoop session ' + sid);
    // json: each turn as last drawn, so a snapshot redraws only the turns that changed.
    // earlier: how many turns come before the first one loaded (the API sends the latest page; more on request).
    // whole: the turns the person loaded whole (loadWholeTurn below).
    var state = { session: null, turns: new Map(), json: new Map(), nodes: new Map(), live: false, earlier: 0, whole: new Map() };
    var root = el('div');
    var crumbs = el('div', 'crumbs');
    var back = el('a', null, '← All sessions');
    back.href = '#/';
    add(crumbs, back);
    var headBox = el('div');
    var statsBox = el('div');
    var chartsBox = el('div');
    var timeline = el('ol', 'timeline');
    var earlierBox = el('div', 'earlier');
    add(root, crumbs, headBox, statsBox, chartsBox, add(el('h2', null, 'Timeline')), earlierBox, timeline);
    app.replaceChildren(root);
    var source = null;
    var stopped = false;

    // The charts draw a bar per turn: redrawn only when a turn changed, never for a session row or the live badge.
    function redraw(turnsChanged) {
      var first = firstLoaded();
      state.earlier = first > 1 ? first - 1 : 0;
      headBox.replaceChildren(renderHeader(state));
      statsBox.replaceChildren(renderStats(state));
      if (turnsChanged) { chartsBox.replaceChildren(renderCharts(state)); renderEarlier(); }
    }
    // Turns are numbered from 1 without gaps: those before the first one loaded are the ones not loaded yet.
    function firstLoaded() {
      var first = 0;
      state.turns.forEach(function (turn) { if (first === 0 || turn.turnIndex < first) first = turn.turnIndex; });
      return first;
    }
    var loadingEarlier = false;
    function renderEarlier() {
      var first = firstLoaded();
      if (state.earlier === 0) { earlierBox.replaceChildren(); return; }
      var button = el('button', 'more-turns', loadingEarlier ? 'Loading earlier turns…' : 'Show earlier turns (' + fmtInt(state.earlier) + ' not loaded)');
      button.type = 'button';
      button.disabled = loadingEarlier;
      button.addEventListener('click', function () {
        loadingEarlier = true;
        renderEarlier();
        getJson('/api/sessions/' + encodeURIComponent(sid) + '?before=' + first).then(function (data) {
          loadingEarlier = false;
          if (stopped) return;
          upsertTurns(data.turns);
          redraw(true);
        }, function (error) {
          loadingEarlier = false;
          if (stopped) return;
          renderEarlier();
          add(earlierBox, el('div', 'error-banner', String(error.message)));
        });
      });
      earlierBox.replaceChildren(el('div', 'muted', 'Showing turns ' + fmtInt(first) + ' to ' + fmtInt(Math.max.apply(null, Array.from(state.turns.keys()))) + ' of this session, the latest first loaded.'), button);
    }
    // A turn its page cut (a long OUTPUT, a tool result of megabytes): the whole of it, asked for. It stays whole: the
    // feed sends it cut again (a snapshot on reconnecting, a turn saved again), and that put the cut one back. Kept
    // with it: the cut text it replaced (cutting a turn gives the same text each time, so the same cut text is the
    // same turn) and a ticket, so an older answer that comes late does not draw over a newer one.
    var wholeTickets = 0;
    function loadWholeTurn(turnIndex, cutText) {
      var ticket = ++wholeTickets;
      state.whole.set(turnIndex, { cut: cutText === undefined ? state.json.get(turnIndex) : cutText, ticket: ticket });
      function latest() { var wish = state.whole.get(turnIndex); return !stopped && wish !== undefined && wish.ticket === ticket; }
      return getJson('/api/sessions/' + encodeURIComponent(sid) + '/turns/' + turnIndex).then(function (data) {
        if (latest()) redraw(upsertTurn(data.turn));
      }, function (error) {
        // Not read: the turn is cut again, with its button; stale, when a newer read is under way.
        error.stale = !latest();
        if (!error.stale) state.whole.delete(turnIndex);
        throw error;
      });
    }
    // A cut version of a turn loaded whole: the same as before, and the whole one stays; else the turn changed, and
    // its whole is read again (the whole one drawn stays until it comes; if it cannot be read, the cut one is drawn,
    // saying why). True when the turn is to be drawn as any other.
    function drawnAsSent(turn, key) {
      var wish = state.whole.get(turn.turnIndex);
      if (!wish || !turn.cut) return true;
      if (wish.cut === key) return false;
      loadWholeTurn(turn.turnIndex, key).catch(function (error) {
        if (stopped || error.stale) return;
        redraw(upsertTurn(turn, key));
        var note = state.nodes.get(turn.turnIndex).querySelector('.cut-note');
        if (note) add(note, el('div', 'error-banner', String(error.message)));
      });
      return false;
    }
    // Places a turn in index order; turns arrive in order, so the walk from the end is short.
    function upsertTurn(turn, text) {
      var key = text === undefined ? JSON.stringify(turn) : text;
      if (state.json.get(turn.turnIndex) === key || !drawnAsSent(turn, key)) return false;
      state.json.set(turn.turnIndex, key);
      state.turns.set(turn.turnIndex, turn);
      var placeholder = timeline.querySelector('li.placeholder');
      if (placeholder) placeholder.remove();
      var node = renderTurn(turn, loadWholeTurn);
      var existing = state.nodes.get(turn.turnIndex);
      state.nodes.set(turn.turnIndex, node);
      if (existing) { existing.replaceWith(node); return true; }
      var before = null;
      for (var li = timeline.lastElementChild; li && Number(li.dataset.turn) > turn.turnIndex; li = li.previousElementSibling) before = li;
      timeline.insertBefore(node, before);
      return true;
    }
    function upsertTurns(turns) {
      var changed = false;
      turns.forEach(function (turn) { if (upsertTurn(turn)) changed = true; });
      return changed;
    }
    function follow() {
      source = new EventSource('/api/sessions/' + encodeURIComponent(sid) + '/live');
      // The whole session in one message: drawn once, and only what moved since the page loaded it.
      source.addEventListener('snapshot', function (event) {
        var data = JSON.parse(event.data);
        state.session = data.session;
        state.live = true;
        redraw(upsertTurns(data.turns));
      });
      source.addEventListener('session', function (event) { state.session = JSON.parse(event.data); redraw(false); });
      source.addEventListener('turn', function (event) { redraw(upsertTurn(JSON.parse(event.data))); });
      source.addEventListener('end', function () { source.close(); state.live = false; redraw(false); });
      source.addEventListener('error', function () { state.live = false; redraw(false); });
    }
    getJson('/api/sessions/' + encodeURIComponent(sid)).then(function (data) {
      if (stopped) return;
      // A prefix (or a bare #id) names the session: show its full id, and follow that.
      if (data.session.sid !== sid || location.hash !== sessionHref(sid)) {
        sid = data.session.sid;
        history.replaceState(null, '', sessionHref(sid));
        setText(where, 'Session ' + sid);
        document.title = markControls('AskLoop session ' + sid);
      }
      state.session = data.session;
      upsertTurns(data.turns);
      if (data.turns.length === 0) add(timeline, el('li', 'placeholder muted', 'No turn yet.'));
      redraw(true);
      // A halted session too: a resume may continue it while the page is open.
      if (data.session.status !== 'done') follow();
    }, function (error) {
      if (stopped) return;
      var banner = el('div', 'error-banner', String(error.message));
      // Several ids start so: the list, searched for it, shows which.
      if (error.code === 'VIEW_SESSION_AMBIGUOUS') {
        var matching = el('a', null, 'List the sessions whose id contains it');
        matching.href = '#/';
        matching.addEventListener('click', function () { listQuery = { q: sid, status: '', offset: 0 }; });
        add(banner, document.createTextNode(' — '), matching);
      }
      root.replaceChildren(crumbs, banner);
    });
    // "updated N s ago" goes on counting while nothing changes (a halted session, a quiet turn), as the list's ages do.
    var ageTimer = setInterval(function () {
      var since = headBox.querySelector('[data-since]');
      if (since) setText(since, 'updated ' + age(since.dataset.since));
    }, 5000);
    return function () { stopped = true; clearInterval(ageTimer); if (source) source.close(); };
  }

  var TITLE_MAX = 300;
  function renderHeader(state) {
    var s = state.session;
    var box = el('div');
    if (!s) return box;
    var subject = s.userdata && typeof s.userdata === 'object' ? s.userdata.subject : undefined;
    // A task may be 20,000 characters: the heading shows its start, and the whole task is its tooltip.
    var heading = typeof subject === 'string' ? subject : 'Session ' + s.sid;
    var h1 = el('h1', null, heading.length > TITLE_MAX ? heading.slice(0, TITLE_MAX) + '…' : heading);
    if (heading.length > TITLE_MAX) h1.title = markControls(heading);
    add(box, h1);
    var meta = el('div', 'meta');
    add(meta, el('span', 'mono', s.sid), el('span', null, 'agent ' + s.agent), badge(s.status));
    if (state.live && !s.orphaned && (s.status === 'running' || s.status === 'paused')) add(meta, el('span', 'live', 'Live'));
    var updated = el('span', null, 'updated ' + age(s.updatedAt));
    updated.dataset.since = s.updatedAt;
    add(meta, el('span', null, 'started ' + new Date(s.createdAt).toLocaleString()), updated);
    if (s.parentSid) {
      var parent = el('a', 'mono', 'parent ' + s.parentSid);
      parent.href = sessionHref(s.parentSid);
      add(meta, parent);
    }
    add(box, meta);
    // Its host stopped mid-session (a crash, a kill): it says running, but nothing runs it until someone resumes it.
    if (s.orphaned) add(box, el('div', 'error-banner orphaned', 'No host is running this session: the one that ran it stopped (it crashed or was killed) and its lease has lapsed. ' + (s.resume || 'askloop resume ' + s.sid) + ' continues it where it stopped.'));
    return box;
  }
  function totals(state) {
    var t = { inputTokens: 0, outputTokens: 0, costUsd: 0, fuel: 0, toolCalls: 0, ms: 0, replied: false, priced: false, partial: false };
    // With earlier turns not loaded, the session's tally (the controller's totals of its decided turns) counts them,
    // and the loaded turns after it are added; without a tally, only the loaded turns are counted, and it says so.
    var tally = state.session && state.session.tally;
    var through = 0;
    if (state.earlier > 0 && tally && tally.totals) {
      through = tally.turn;
      t.inputTokens = tally.totals.inputTokens; t.outputTokens = tally.totals.outputTokens; t.costUsd = tally.totals.costUsd;
      t.fuel = tally.totals.fuel; t.toolCalls = tally.totals.toolCalls; t.ms = tally.totals.wallMs;
    } else if (state.earlier > 0) t.partial = true;
    state.turns.forEach(function (turn) {
      if (turn.turnIndex <= through) { if (turn.reply) { t.replied = true; if (turn.reply.costUsd !== undefined) t.priced = true; } return; }
      // A reply carries a cost only when the model has prices: with none, a total of 0 is unknown, not free.
      if (turn.reply) { t.replied = true; if (turn.reply.costUsd !== undefined) t.priced = true; }
      t.inputTokens += turn.usage.inputTokens; t.outputTokens += turn.usage.outputTokens; t.costUsd += turn.usage.costUsd;
      // What the turn's asks' child loops spent counts too, as the run's summary and askloop show count it.
      (turn.asks || []).forEach(function (ask) {
        if (ask.usage) { t.inputTokens += ask.usage.inputTokens; t.outputTokens += ask.usage.outputTokens; t.costUsd += ask.usage.costUsd; }
      });
      t.fuel += turn.usage.fuel; t.toolCalls += turn.usage.toolCalls; t.ms += turn.timings.total || 0;
    });
    return t;
  }
  function renderStats(state) {
    var t = totals(state);
    var s = state.session;
    // A running session that last halted or paused was resumed past that decision: it is running, not halted.
    var resumed = s && s.status === 'running' && s.lastDecision && (s.lastDecision.kind === 'HALT' || s.lastDecision.kind === 'PAUSE');
    var last = s && s.lastDecision && !resumed ? s.lastDecision.kind : s ? s.status : '';
    var grid = el('div', 'stats');
    function stat(label, value, title) {
      var box = add(el('div', 'stat'), el('div', 'label', label), el('div', 'value', value));
      if (title) box.title = markControls(title);
      return box;
    }
    // Decided turns, as the list and askloop sessions count them: a turn paused for approval or still running is not one yet.
    var decided = s && typeof s.turns === 'number' ? s.turns : state.turns.size;
    var pending = state.turns.size + state.earlier - decided;
    var partial = t.partial ? ' (of the ' + fmtInt(state.turns.size) + ' turns loaded)' : '';
    add(grid, stat('Turns', fmtInt(decided), pending > 0 ? pending + ' more stored, not decided yet (running or waiting for approval)' : ''), stat('Decision', last, s && s.lastDecision ? (resumed ? 'resumed after ' : '') + decisionText(s.lastDecision) : ''),
      stat('Tokens in / out', fmtInt(t.inputTokens) + ' / ' + fmtInt(t.outputTokens), partial), stat('Cost', t.replied && !t.priced && t.costUsd === 0 ? 'unknown' : fmtCost(t.costUsd), (t.replied && !t.priced ? 'the model has no prices, so no reply had a cost' : '') + partial),
      stat('Tool calls', fmtInt(t.toolCalls), partial), stat('Time', fmtMs(t.ms), 'fuel ' + fmtInt(t.fuel) + partial));
    return grid;
  }

  // ---- charts: inline SVG stacked bars, one per turn ----
  function barChart(title, turns, series, format) {
    var panel = add(el('div', 'panel chart'), el('h2', null, title));
    var width = 520, height = 150, left = 46, bottom = 20, top = 8;
    var chart = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': title, preserveAspectRatio: 'none' });
    var max = 0;
    turns.forEach(function (turn) { var sum = 0; series.forEach(function (s) { sum += Math.max(0, s.value(turn)); }); max = Math.max(max, sum); });
    max = niceCeil(max);
    var plotH = height - bottom - top, plotW = width - left - 6;
    [0, 0.5, 1].forEach(function (f) {
      var y = top + plotH * (1 - f);
      add(chart, svg('line', { x1: left, x2: width - 6, y1: y, y2: y, stroke: '#e2e6eb' }), svg('text', { x: left - 6, y: y + 4, 'text-anchor': 'end', 'font-size': 10, fill: '#5f6b7a' }, format(max * f)));
    });
    var slot = plotW / Math.max(turns.length, 1);
    var bar = Math.min(36, slot * 0.6);
    // A label every so many turns, so labels about 24 units apart never overlap (320 turns drew 320 labels on one another).
    var labelEvery = Math.max(1, Math.ceil(24 / slot));
    turns.forEach(function (turn, i) {
      var x = left + slot * i + (slot - bar) / 2;
      var y = top + plotH;
      var tip = ['Turn ' + turn.turnIndex];
      series.forEach(function (s) {
        var v = Math.max(0, s.value(turn));
        var h = plotH * v / max;
        y -= h;
        var rect = svg('rect', { x: x, y: y, width: bar, height: Math.max(h, 0), fill: s.color, rx: 2 });
        add(chart, rect);
        tip.push(s.label + ': ' + format(v));
      });
      var hit = svg('rect', { x: left + slot * i, y: top, width: slot, height: plotH, fill: 'transparent' });
      add(hit, svg('title', {}, tip.join('\n')));
      add(chart, hit);
      if (i % labelEvery === 0) add(chart, svg('text', { x: x + bar / 2, y: height - 6, 'text-anchor': 'middle', 'font-size': 10, fill: '#5f6b7a' }, String(turn.turnIndex)));
    });
    add(panel, chart);
    var legend = el('div', 'legend');
    series.forEach(function (s) { var item = el('span'); add(item, el('i', s.swatch), document.createTextNode(s.label)); add(legend, item); });
    return add(panel, legend);
  }
  // Rounds an axis maximum up to 1, 2, 2.5 or 5 times a power of ten, so the ticks read as round numbers.
  function niceCeil(value) {
    if (!(value > 0)) return 1;
    var power = Math.pow(10, Math.floor(Math.log10(value)));
    var steps = [1, 2, 2.5, 5, 10];
    for (var i = 0; i < steps.length; i++) if (value <= steps[i] * power) return steps[i] * power;
    return 10 * power;
  }
  function renderCharts(state) {
    var turns = Array.from(state.turns.values()).sort(function (a, b) { return a.turnIndex - b.turnIndex; });
    var grid = el('div', 'charts');
    if (turns.length === 0) return grid;
    add(grid,
      barChart('Tokens per turn', turns, [
        { label: 'input', color: '#2f6fde', swatch: 'sw-in', value: function (t) { return t.usage.inputTokens; } },
        { label: 'output', color: '#7fb0ff', swatch: 'sw-out', value: function (t) { return t.usage.outputTokens; } },
      ], function (v) { return fmtInt(Math.round(v)); }),
      barChart('Latency per turn', turns, [
        { label: 'model', color: '#6b4fd8', swatch: 'sw-model', value: function (t) { return t.timings.model || 0; } },
        { label: 'rest of the turn', color: '#c3b6f3', swatch: 'sw-rest', value: function (t) { return (t.timings.total || 0) - (t.timings.model || 0); } },
      ], fmtMs));
    return grid;
  }

  // ---- one turn ----
  function renderProgram(turn) {
    var flagged = new Set();
    turn.diagnostics.forEach(function (d) { if (d.line) flagged.add(d.line); });
    if (turn.failure && turn.failure.line) flagged.add(turn.failure.line);
    var box = el('div', 'program');
    turn.actions.replace(/\n$/, '').split('\n').forEach(function (line, i) {
      var row = el('div', 'ln' + (flagged.has(i + 1) ? ' flag' : ''));
      add(row, el('span', 'no', i + 1), el('span', 'src', line));
      add(box, row);
    });
    return box;
  }
  // A loop of calls can make thousands in a turn: the page draws the first ones and the rest when asked.
  var CALLS_SHOWN = 50;
  // earlier: the calls earlier runs of the turn left unfinished (the record's earlierUnfinished), each with its run.
  // cutJson: the paths (toolCalls.3.result) whose JSON the page was sent cut, as text: shown as it came, not quoted again.
  function renderCalls(calls, earlier, prefix, cutJson) {
    function shown(value, path) { return cutJson.has(path) ? value : json(value); }
    var table = el('table', earlier ? 'calls earlier' : 'calls');
    add(table, add(el('thead'), add(el('tr'), earlier ? el('th', null, 'Run') : null, el('th', null, '#'), el('th', null, 'Tool'), el('th', null, 'Arguments'), el('th', null, 'Result'), el('th', null, 'Time'))));
    var body = el('tbody');
    function addRows(from, to) {
      calls.slice(from, to).forEach(function (call, i) {
        var path = prefix + '.' + (from + i) + '.';
        // A call still out when the run ended: no result reached the program, and it may have acted (the record's note).
        var result = call.unfinished
          ? el('td', 'code unfinished', 'unfinished' + (call.error ? ' (' + call.error.code + ')' : '') + ': ' + call.unfinished.note)
          : call.error ? el('td', 'code err', call.error.code + ': ' + call.error.message) : el('td', 'code', call.result === undefined ? '—' : shown(call.result, path + 'result'));
        var args = cutJson.has(path + 'args') ? call.args : call.args.map(json).join(', ');
        add(body, add(el('tr'), earlier ? el('td', 'run', 'run ' + call.run) : null, el('td', null, call.index + 1), el('td', 'tool', call.displayName ?? call.name), el('td', 'code', args), result, el('td', null, fmtMs(call.durationMs))));
      });
    }
    addRows(0, CALLS_SHOWN);
    add(table, body);
    // In a box of its own that scrolls sideways, as the session list: on a phone the page itself does not.
    var scroll = add(el('div', 'table-scroll'), table);
    if (calls.length <= CALLS_SHOWN) return scroll;
    var more = el('button', 'more-calls', 'Show ' + fmtInt(calls.length - CALLS_SHOWN) + ' more tool calls');
    more.type = 'button';
    more.addEventListener('click', function () {
      addRows(CALLS_SHOWN, calls.length);
      more.remove();
    });
    return add(el('div'), scroll, more);
  }
  // What a page's cut left of a text (bound-turn.ts): its whole length, from the turn's cut list.
  function fullLength(turn, path, text) {
    var cut = (turn.cut || []).filter(function (c) { return c.path === path; })[0];
    return cut ? cut.size : text.length;
  }
  var CUT_LABELS = { system: 'system text', envelope: 'envelope', 'reply.text': 'reply', actions: 'program', output: 'OUTPUT', scratchpad: 'SCRATCHPAD', toolCalls: 'tool calls', emits: 'emits' };
  // Says what the page was sent cut of this turn, with the way to the whole of it.
  function renderCutNote(turn, loadWhole) {
    var parts = turn.cut.map(function (c) { return (CUT_LABELS[c.path] || c.path) + ' (' + fmtInt(c.kept) + ' of ' + fmtInt(c.size) + (c.kind === 'list' ? ' items' : ' characters') + ')'; });
    var note = el('div', 'cut-note', 'Cut to keep the page light: ' + parts.join(', ') + '. ');
    var button = el('button', 'whole-turn', 'Load the whole turn');
    button.type = 'button';
    button.addEventListener('click', function () {
      button.disabled = true;
      setText(button, 'Loading…');
      loadWhole(turn.turnIndex).catch(function (error) { button.disabled = false; setText(button, 'Load the whole turn'); add(note, el('div', 'error-banner', String(error.message))); });
    });
    add(note, button, el('span', 'muted', ' or run askloop show ' + turn.sid + ' --turn ' + turn.turnIndex + ' --full'));
    return note;
  }
  function renderTurn(turn, loadWhole) {
    // Per session and turn, so a live re-render keeps what a person opened, and another session starts closed.
    var key = turn.sid + ':' + turn.turnIndex + ':';
    var cutJson = new Set((turn.cut || []).filter(function (c) { return c.kind === 'json'; }).map(function (c) { return c.path; }));
    var li = el('li', 'turn panel' + (turn.decision ? ' d-' + turn.decision.kind : ''));
    li.dataset.turn = String(turn.turnIndex);
    var head = el('div', 'turn-head');
    add(head, el('span', 'title', 'Turn ' + turn.turnIndex));
    if (turn.kind !== 'normal') add(head, badge(turn.kind, 'kind'));
    if (turn.phase !== 'decided') add(head, badge(turn.phase, 'running'));
    // A turn resume reopened after a HALT (cancelled, or its model call failed): its earlier runs' time is in the total.
    if (turn.reruns > 0) add(head, badge(turn.reruns === 1 ? 'run again' : 'run again ×' + turn.reruns, 'kind'));
    // Runs of the turn that stopped mid-turn with nothing of their end saved (a host killed, a lease taken over): the
    // record keeps none of their calls, and one that stopped mid-program may have acted outside the store.
    if (turn.interrupted && turn.interrupted.length > 0) {
      // The record lists the latest runs and counts the older ones (interruptedDropped): the badge counts them all.
      var dropped = turn.interruptedDropped > 0 ? turn.interruptedDropped : 0;
      var stopped = turn.interrupted.length + dropped;
      var cut = badge(stopped === 1 ? 'interrupted' : 'interrupted ×' + stopped, 'kind');
      cut.title = (dropped > 0 ? [dropped + ' earlier run' + (dropped === 1 ? '' : 's') + ' stopped mid-turn too (the record lists the latest ' + turn.interrupted.length + ')'] : []).concat(turn.interrupted.map(function (run) {
        return run.phase === 'executing' ? 'a run stopped mid-program; the program ran again from its start at ' + run.at + ': a call with effects outside the store may have acted once per run' : 'a run stopped before its program started; continued at ' + run.at;
      })).join('\n');
      add(head, cut);
    }
    if (turn.decision) add(head, badge(turn.decision.kind));
    add(head, el('span', 'spacer'), el('span', 'muted', new Date(turn.startedAt).toLocaleTimeString() + ' · ' + fmtMs(turn.timings.total)));
    add(li, head);
    if (turn.cut && turn.cut.length > 0) add(li, renderCutNote(turn, loadWhole));

    var grid = el('div', 'turn-grid');
    var leftCol = el('div');
    var rightCol = el('div');
    add(grid, leftCol, rightCol);
    add(li, grid);

    var sent = section('Sent');
    add(sent, collapsible(key + 'envelope', 'Envelope (' + fmtInt(fullLength(turn, 'envelope', turn.envelope)) + ' characters)', turn.envelope),
      collapsible(key + 'system', 'System text (' + fmtInt(fullLength(turn, 'system', turn.system)) + ' characters)', turn.system));
    add(leftCol, sent);
    if (turn.reply) {
      var r = turn.reply;
      var reply = section('Reply');
      add(reply, collapsible(key + 'reply', r.provider + ':' + r.model + ' · ' + fmtInt(r.inputTokens) + ' in / ' + fmtInt(r.outputTokens) + ' out · ' + fmtMs(r.latencyMs) + ' · ' + r.finishReason, r.text));
      add(leftCol, reply);
    }
    if (turn.lints.length > 0) {
      var lints = add(section('Envelope notes'), el('ul', 'plain'));
      turn.lints.forEach(function (l) { add(lints.lastChild, el('li', 'lint', l.code + ' ' + l.message)); });
      add(leftCol, lints);
    }
    if (turn.actions !== undefined) add(leftCol, add(section('Program (ACTIONS)'), renderProgram(turn)));
    if (turn.diagnostics.length > 0) {
      var diags = add(section('Diagnostics'), el('ul', 'plain'));
      turn.diagnostics.forEach(function (d) { add(diags.lastChild, el('li', 'diag', d.line + ':' + d.column + ' ' + d.code + ' ' + d.message)); });
      add(leftCol, diags);
    }
    // Calls still out when an earlier run of the turn ended (resume ran it again): apart, before this run's, with their run.
    if (turn.earlierUnfinished && turn.earlierUnfinished.length > 0) add(leftCol, add(section('Unfinished in earlier runs of this turn'), renderCalls(turn.earlierUnfinished, true, 'earlierUnfinished', cutJson)));
    if (turn.toolCalls.length > 0) add(leftCol, add(section('Tool calls'), renderCalls(turn.toolCalls, false, 'toolCalls', cutJson)));

    if (turn.failure) {
      var f = turn.failure;
      var fail = add(section('Failure'), el('div', 'failure', f.code + ' (' + f.kind + ')' + (f.line ? ' at line ' + f.line + (f.column ? ', column ' + f.column : '') : '') + ': ' + f.message));
      if (f.sourceLine) add(fail.lastChild, el('div', 'mono', '> ' + f.sourceLine));
      // A denial for want of a grant: the grant from the record's data (a long message is cut here, its hint with it).
      if (f.grant) add(fail.lastChild, el('div', 'mono', 'grant to add: ' + f.grant.capability + ' (' + f.grant.code + '; only the operator can add it)'));
      add(rightCol, fail);
    }
    if (turn.approval) {
      var a = turn.approval;
      add(rightCol, add(section('Approval'), el('div', null, a.state + ' — ' + a.message + (a.note ? ' (note: ' + a.note + ')' : ''))));
    }
    if (turn.emits.length > 0) {
      var emits = section('Emits');
      turn.emits.forEach(function (text) { add(emits, el('div', 'emit', text)); });
      add(rightCol, emits);
    }
    if (turn.whispers.length > 0) {
      var whispers = add(section('Whispers'), el('ul', 'plain'));
      turn.whispers.forEach(function (w) { add(whispers.lastChild, el('li', 'whisper', w.target + ' ← ' + w.text)); });
      add(rightCol, whispers);
    }
    var decision = section('Decision');
    if (turn.decision) add(decision, add(el('div', 'decision'), badge(turn.decision.kind), el('span', null, decisionText(turn.decision))));
    else add(decision, el('div', 'muted', 'not decided yet (' + turn.phase + ')'));
    add(rightCol, decision);
    var facts = el('dl', 'kv');
    function fact(label, value) { add(facts, el('dt', null, label), el('dd', null, value)); }
    fact('digest', turn.digest === null ? '— (nothing ran)' : turn.digest);
    fact('tokens', fmtInt(turn.usage.inputTokens) + ' in / ' + fmtInt(turn.usage.outputTokens) + ' out');
    // A reply without a cost came from a model without prices: unknown, as the header says, not "$0" (free).
    fact('cost', turn.reply && turn.reply.costUsd === undefined ? 'unknown (the model has no prices)' : fmtCost(turn.usage.costUsd));
    fact('fuel', fmtInt(turn.usage.fuel));
    fact('tool calls', fmtInt(turn.usage.toolCalls));
    var stages = ['earlier', 'compose', 'model', 'extract', 'prepare', 'approval', 'execute', 'scan', 'persist'].filter(function (k) { return turn.timings[k] !== undefined; });
    var stageLabels = { earlier: 'earlier runs' };
    fact('timings', stages.map(function (k) { return (stageLabels[k] || k) + ' ' + fmtMs(turn.timings[k]); }).join(', ') || '—');
    add(rightCol, add(section('Digest and usage'), facts));
    if (turn.output || turn.scratchpad) {
      var carried = section('Fed to the next turn');
      if (turn.output) add(carried, collapsible(key + 'output', 'OUTPUT (' + fmtInt(fullLength(turn, 'output', turn.output)) + ' characters)', turn.output));
      if (turn.scratchpad) add(carried, collapsible(key + 'scratchpad', 'SCRATCHPAD (' + fmtInt(fullLength(turn, 'scratchpad', turn.scratchpad)) + ' characters)', turn.scratchpad));
      add(rightCol, carried);
    }
    return li;
  }

`;

/** Last, so every part's state is set before the first route runs. */
const ROUTER_SCRIPT = String.raw`
  // #/sessions/ID, or a bare #ID (an id or its start, as the command line prints it); anything else is the list.
  function route() {
    current.stop();
    var match = /^#\/sessions\/(.+)$/.exec(location.hash) || /^#([^/].*)$/.exec(location.hash);
    var sid = null;
    if (match) { try { sid = decodeURIComponent(match[1]); } catch (e) { sid = null; } }
    current = { stop: sid === null ? showList() : showSession(sid) };
  }
  window.addEventListener('hashchange', route);
  // A tab in the background holds no live feed and polls nothing: a browser gives one site 6 connections, and six
  // open sessions' feeds would stall every other request. Shown again, the page is drawn afresh.
  document.addEventListener('visibilitychange', function () {
    if (document.hidden) current.stop();
    else route();
  });
  route();
`;

/** The JavaScript of the viewer page: one function scope around its parts. */
export const VIEWER_SCRIPT = `(function () {\n  'use strict';${VISIBLE_TEXT_SCRIPT}${PAGE_SCRIPT}${LIST_SCRIPT}${ROUTER_SCRIPT}})();\n`;
