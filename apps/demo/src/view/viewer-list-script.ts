/**
 * The session list of the viewer page (a part of its script, joined in
 * viewer-script.ts and using its helpers `el`, `add`, `getJson`…): one page
 * of `/api/sessions` at a time, newest first, with Newer/Older to move
 * between pages and a search box and status choice the server applies, so
 * every session in the store can be reached. Refreshed every 2 s. (Kept free
 * of backticks and dollar-brace so it can live in a raw template.)
 */

/** The JavaScript of the list. */
export const LIST_SCRIPT = String.raw`
  // ---- the session list ----
  // What the list shows, kept while a session is open, so "All sessions" comes back to the same page and search.
  var listQuery = { q: '', status: '', offset: 0 };
  var STATUS_CHOICES = ['running', 'paused', 'done', 'halted'];

  function showList() {
    // The address holds the search, the status and the page (#/?q=…&status=…&offset=…), so a reload or a link keeps
    // them; a bare #/ (the "All sessions" link) comes back to the list as it was left.
    var fromUrl = /^#\/\?(.*)$/.exec(location.hash);
    if (fromUrl) {
      var inAddress = new URLSearchParams(fromUrl[1]);
      listQuery = {
        q: inAddress.get('q') || '',
        status: STATUS_CHOICES.indexOf(inAddress.get('status')) >= 0 ? inAddress.get('status') : '',
        offset: Math.max(0, parseInt(inAddress.get('offset') || '0', 10) || 0),
      };
    }
    where.textContent = 'Sessions';
    document.title = 'AskLoop sessions';
    var root = el('div');
    add(root, el('h1', null, 'Sessions'));
    var tools = el('div', 'list-tools');
    var search = el('input');
    search.type = 'search';
    search.placeholder = 'Search ids, agents and tasks';
    search.setAttribute('aria-label', 'Search ids, agents and tasks');
    search.value = listQuery.q;
    var status = el('select');
    status.setAttribute('aria-label', 'Status');
    add(status, el('option', null, 'Any status'));
    status.lastChild.value = '';
    STATUS_CHOICES.forEach(function (choice) { var option = el('option', null, choice); option.value = choice; add(status, option); });
    status.value = listQuery.status;
    add(tools, search, status);
    var body = el('div');
    var pager = el('div', 'pager');
    var newer = el('button', null, '← Newer');
    var older = el('button', null, 'Older →');
    newer.type = older.type = 'button';
    var range = el('span', 'muted');
    add(pager, newer, range, older);
    add(root, tools, body, pager);
    app.replaceChildren(root);
    var timer = 0;
    var typing = 0;
    var stopped = false;
    // Only the answer to the latest request is shown: a slow older one must not overwrite a newer search.
    var asked = 0;
    var page = null;
    // What the table shows (its sessions and the search they answer), so an unchanged refresh leaves it as it is.
    var shown = '';

    function load() {
      clearTimeout(timer);
      var ticket = ++asked;
      var params = new URLSearchParams();
      if (listQuery.q) params.set('q', listQuery.q);
      if (listQuery.status) params.set('status', listQuery.status);
      if (listQuery.offset > 0) params.set('offset', String(listQuery.offset));
      var query = params.toString();
      // Replaced, not pushed: typing a search makes no history entry per pause.
      var address = '#/' + (query ? '?' + query : '');
      if (location.hash !== address) history.replaceState(null, '', address);
      getJson('/api/sessions' + (query ? '?' + query : '')).then(function (data) {
        if (stopped || ticket !== asked) return;
        page = data;
        // The refresh every 2 s must not take a keyboard user's place or a selection: the same rows only get their
        // ages again; changed rows are drawn anew, with the focus put back on the same session's link.
        var drawn = JSON.stringify(data.sessions) + '|' + listQuery.q + '|' + listQuery.status;
        if (drawn === shown) refreshAges(data.sessions);
        else {
          var focused = document.activeElement && body.contains(document.activeElement) ? document.activeElement.closest('tr') : null;
          body.replaceChildren(renderList(data.sessions, listQuery.q !== '' || listQuery.status !== '', listQuery.offset > 0));
          shown = drawn;
          if (focused && focused.dataset.sid) {
            var again = body.querySelector('tr[data-sid="' + CSS.escape(focused.dataset.sid) + '"] a');
            if (again) again.focus();
          }
        }
        showPager();
      }, function (error) {
        if (!stopped && ticket === asked) { shown = ''; body.replaceChildren(el('div', 'error-banner', String(error.message))); }
      }).then(function () { if (!stopped && ticket === asked) timer = setTimeout(load, 2000); });
    }
    function refreshAges(sessions) {
      var rows = body.querySelectorAll('tbody tr');
      sessions.forEach(function (s, index) {
        var cell = rows[index] && rows[index].lastChild;
        var text = age(s.updatedAt);
        if (cell && cell.textContent !== text) cell.textContent = text;
      });
    }
    function showPager() {
      newer.disabled = page.offset === 0;
      older.disabled = page.next === null;
      pager.hidden = page.offset === 0 && page.next === null;
      range.textContent = page.sessions.length === 0 ? 'none from ' + fmtInt(page.offset + 1) : fmtInt(page.offset + 1) + '–' + fmtInt(page.offset + page.sessions.length);
    }
    function move(offset) { listQuery.offset = Math.max(0, offset); load(); }
    newer.addEventListener('click', function () { if (page) move(page.offset - page.pageSize); });
    older.addEventListener('click', function () { if (page && page.next !== null) move(page.next); });
    search.addEventListener('input', function () {
      clearTimeout(typing);
      // A request per pause in typing, not per key.
      typing = setTimeout(function () { typing = 0; listQuery.q = search.value.trim(); move(0); }, 250);
    });
    status.addEventListener('change', function () { listQuery.status = status.value; move(0); });
    load();
    return function () {
      stopped = true;
      clearTimeout(timer);
      // Left mid-typing: what was typed is the search the list comes back to.
      if (typing) { clearTimeout(typing); listQuery.q = search.value.trim(); listQuery.offset = 0; }
    };
  }
  function renderList(sessions, narrowed, paged) {
    // Past the last page (an address kept from a longer list) is not an empty store.
    if (sessions.length === 0 && paged) {
      var first = el('a', null, 'Back to the first page');
      first.href = '#/';
      first.addEventListener('click', function () { listQuery.offset = 0; });
      return add(el('div', 'panel empty', 'No sessions this far into the list. '), first);
    }
    if (sessions.length === 0) return el('div', 'panel empty', narrowed ? 'No session matches.' : 'No sessions yet. Run one with askloop run, then come back.');
    var table = el('table', 'sessions');
    var head = add(el('tr'), el('th', null, 'Session'), el('th', null, 'Task'), el('th', null, 'Agent'), el('th', null, 'Status'), el('th', 'num', 'Turns'), el('th', null, 'Updated'));
    add(table, add(el('thead'), head));
    var tbody = el('tbody');
    sessions.forEach(function (s) {
      var row = el('tr');
      row.dataset.sid = s.sid;
      var link = el('a', 'mono', s.sid);
      link.href = sessionHref(s.sid);
      var status = add(el('td'), badge(s.status));
      // A running session's HALT is an earlier turn's, which its resume goes past.
      if (s.lastDecision && s.lastDecision.kind === 'HALT' && s.status !== 'running') add(status, el('span', 'muted', ' ' + s.lastDecision.reason));
      var task = el('td', 'task', s.task === null ? '—' : s.task);
      if (s.task !== null) task.title = markControls(s.task);
      add(row, add(el('td'), link), task, el('td', null, s.agent), status, el('td', 'num', fmtInt(s.turns)), el('td', 'muted', age(s.updatedAt)));
      row.addEventListener('click', function (event) { if (event.target !== link) location.hash = sessionHref(s.sid); });
      add(tbody, row);
    });
    // In a box of its own that scrolls sideways: on a narrow screen the page itself does not.
    return add(el('div', 'table-scroll'), add(table, tbody));
  }
`;
