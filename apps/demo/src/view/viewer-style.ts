/**
 * The viewer page's stylesheet, inlined into the page (no external request;
 * the Content-Security-Policy admits it by hash).
 */

/** The CSS of the viewer page. */
export const VIEWER_STYLE = `
:root {
  --bg: #f6f7f9; --panel: #ffffff; --ink: #1d2330; --muted: #5f6b7a; --line: #e2e6eb;
  --accent: #2f6fde; --accent-soft: #e8f0fd; --ok: #1f8a4c; --ok-soft: #e5f5ec;
  --bad: #c73a3a; --bad-soft: #fbeaea; --warn: #b7791f; --warn-soft: #fdf3e1;
  --code: #f3f5f8; --mono: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Roboto, sans-serif; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
header.top { display: flex; align-items: center; gap: 12px; padding: 10px 24px; background: #1d2330; color: #fff; }
header.top .brand { font-weight: 650; letter-spacing: .2px; }
header.top .brand span { color: #8fb3f5; }
header.top .where { color: #aab4c3; font-size: 13px; }
main { max-width: 1180px; margin: 0 auto; padding: 18px 24px 48px; }
h1 { font-size: 20px; margin: 4px 0 2px; font-weight: 650; }
h2 { font-size: 15px; margin: 0 0 10px; font-weight: 650; }
h3 { font-size: 12px; margin: 0 0 4px; font-weight: 650; text-transform: uppercase; letter-spacing: .5px; color: var(--muted); }
.muted { color: var(--muted); }
.mono { font-family: var(--mono); font-size: 12.5px; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; }
.table-scroll { overflow-x: auto; max-width: 100%; }
table.sessions { width: 100%; border-collapse: collapse; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
table.sessions th, table.sessions td { text-align: left; padding: 9px 12px; border-bottom: 1px solid var(--line); vertical-align: top; }
table.sessions th { font-size: 12px; color: var(--muted); font-weight: 600; background: #fafbfc; }
table.sessions tr:last-child td { border-bottom: 0; }
table.sessions tbody tr:hover { background: #f8fafd; cursor: pointer; }
td.num, th.num { text-align: right; }
/* A task is one line, cut with an ellipsis (the whole of it in the title): one long task must not widen every row. */
td.task { max-width: 40ch; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; background: var(--code); color: var(--muted); white-space: nowrap; }
.badge.done, .badge.DONE { background: var(--ok-soft); color: var(--ok); }
.badge.halted, .badge.HALT { background: var(--bad-soft); color: var(--bad); }
.badge.paused, .badge.PAUSE { background: var(--warn-soft); color: var(--warn); }
.badge.running, .badge.CONTINUE { background: var(--accent-soft); color: var(--accent); }
.live { display: inline-flex; align-items: center; gap: 6px; font-size: 12px; font-weight: 600; color: var(--bad); }
.live::before { content: ""; width: 8px; height: 8px; border-radius: 50%; background: var(--bad); animation: pulse 1.2s infinite; }
@keyframes pulse { 50% { opacity: .25; } }
.crumbs { margin-bottom: 6px; font-size: 13px; }
.meta { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; color: var(--muted); font-size: 13px; margin-bottom: 14px; }
.stats { display: grid; grid-template-columns: repeat(6, 1fr); gap: 10px; margin-bottom: 14px; }
.stat { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; min-width: 0; }
.stat .label { font-size: 11.5px; color: var(--muted); text-transform: uppercase; letter-spacing: .4px; }
.stat .value { font-size: 18px; font-weight: 650; margin-top: 2px; overflow-wrap: anywhere; }
.charts { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; margin-bottom: 16px; }
.chart svg { display: block; width: 100%; height: 150px; }
.legend { display: flex; gap: 14px; font-size: 12px; color: var(--muted); margin-top: 6px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
.sw-in { background: #2f6fde; } .sw-out { background: #7fb0ff; } .sw-model { background: #6b4fd8; } .sw-rest { background: #c3b6f3; }
ol.timeline { list-style: none; margin: 0; padding: 0 0 0 18px; border-left: 2px solid var(--line); }
li.turn { position: relative; margin: 0 0 14px; }
li.turn::before { content: ""; position: absolute; left: -25px; top: 16px; width: 12px; height: 12px; border-radius: 50%; background: var(--panel); border: 2px solid var(--accent); }
li.turn.d-DONE::before { border-color: var(--ok); background: var(--ok); }
li.turn.d-HALT::before { border-color: var(--bad); background: var(--bad); }
li.turn.d-PAUSE::before { border-color: var(--warn); }
.turn-head { display: flex; align-items: center; gap: 10px; flex-wrap: wrap; padding-bottom: 8px; margin-bottom: 10px; border-bottom: 1px solid var(--line); }
.turn-head .title { font-weight: 650; font-size: 15px; }
.turn-head .spacer { flex: 1; }
.turn-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 14px; }
.turn section { margin-bottom: 12px; min-width: 0; }
.turn section:last-child { margin-bottom: 0; }
pre { margin: 0; font-family: var(--mono); font-size: 12.5px; background: var(--code); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; white-space: pre-wrap; word-break: break-word; max-height: 360px; overflow: auto; }
details { border: 1px solid var(--line); border-radius: 6px; margin-bottom: 8px; background: #fcfcfd; }
details > summary { cursor: pointer; padding: 6px 10px; font-size: 13px; color: var(--muted); user-select: none; }
details[open] > summary { border-bottom: 1px solid var(--line); }
details > pre { border: 0; border-radius: 0 0 6px 6px; }
.program { font-family: var(--mono); font-size: 12.5px; background: var(--code); border: 1px solid var(--line); border-radius: 6px; padding: 6px 0; overflow: auto; max-height: 420px; }
.program .ln { display: grid; grid-template-columns: 40px minmax(0, 1fr); }
.program .ln .no { color: #9aa5b4; text-align: right; padding-right: 10px; user-select: none; }
.program .ln .src { white-space: pre-wrap; word-break: break-word; padding-right: 10px; }
.program .ln.flag { background: var(--bad-soft); }
.program .ln.flag .no { color: var(--bad); font-weight: 700; }
ul.plain { list-style: none; margin: 0; padding: 0; }
ul.plain li { padding: 3px 0; }
.diag { color: var(--bad); font-family: var(--mono); font-size: 12.5px; }
.lint { color: var(--warn); font-family: var(--mono); font-size: 12.5px; }
table.calls { width: 100%; border-collapse: collapse; font-size: 12.5px; }
table.calls th, table.calls td { text-align: left; padding: 5px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
table.calls th { color: var(--muted); font-weight: 600; font-size: 11.5px; }
table.calls td.code { font-family: var(--mono); word-break: break-word; }
table.calls td.err { color: var(--bad); }
table.calls td.unfinished { color: var(--warn); background: var(--warn-soft); }
table.calls td.tool { font-family: var(--mono); white-space: nowrap; }
table.calls td.run { color: var(--warn); white-space: nowrap; }
.emit { font-family: var(--mono); font-size: 12.5px; background: var(--ok-soft); border-radius: 4px; padding: 2px 6px; margin: 2px 0; white-space: pre-wrap; word-break: break-word; max-height: 360px; overflow: auto; }
.whisper { font-family: var(--mono); font-size: 12.5px; }
.decision { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
/* Text with no space to break at (a long result, a URL) wraps anywhere rather than widening the page. */
.decision span, li.whisper, .stat .label, #app h1, #app h2 { overflow-wrap: anywhere; min-width: 0; }
.kv { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; font-size: 12.5px; }
.kv dt { color: var(--muted); }
.kv dd { margin: 0; font-family: var(--mono); word-break: break-all; }
.failure { background: var(--bad-soft); border: 1px solid #f1c6c6; border-radius: 6px; padding: 8px 10px; color: var(--bad); font-size: 13px; }
.empty { padding: 28px; text-align: center; color: var(--muted); }
/* The list's search, status choice and pages (viewer-list-script.ts). */
.list-tools { display: flex; gap: 8px; margin: 10px 0 12px; }
.list-tools input { flex: 1; max-width: 420px; }
.list-tools input, .list-tools select, .pager button { font: inherit; padding: 5px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--ink); }
.pager { display: flex; align-items: center; justify-content: center; gap: 14px; margin-top: 12px; }
.pager[hidden] { display: none; }
.pager button:not(:disabled) { cursor: pointer; color: var(--accent); }
.pager button:disabled { color: var(--muted); opacity: .6; }
.more-calls, .more-turns, .whole-turn { font: inherit; margin-top: 6px; padding: 4px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--accent); cursor: pointer; }
/* A control character in untrusted text, shown as its code (visible-controls.ts): boxed apart from the text it sits in. */
.ctl { display: inline-block; margin: 0 1px; padding: 0 3px; border: 1px dashed var(--warn); border-radius: 3px; background: var(--warn-soft);
  color: var(--warn); font: 600 11px/1.3 var(--mono); white-space: nowrap; unicode-bidi: isolate; direction: ltr; }
.earlier { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin-bottom: 12px; }
.earlier .more-turns { margin-top: 0; }
.cut-note { background: var(--panel); border: 1px dashed var(--line); border-radius: 6px; padding: 6px 10px; margin: 6px 0; overflow-wrap: anywhere; }
.cut-note .whole-turn { margin: 0 4px; }
.error-banner { background: var(--bad-soft); color: var(--bad); border: 1px solid #f1c6c6; padding: 10px 12px; border-radius: 6px; margin-bottom: 12px; }
@media (max-width: 900px) { .stats { grid-template-columns: repeat(3, 1fr); } .charts, .turn-grid { grid-template-columns: minmax(0, 1fr); } }
`;
