// The table page's shell: renders the State that the local server streams (GET /api/events)
// and sends the person's choices (POST /api/move, /api/lobby/...). The game's own part, the
// board, is the module board/board.js, which the server serves for the table's game. No
// framework, no build step.
//
// A board exports:
//   title                     the game's name
//   setupText                 what the players do while the table sets up
//   helpItems()               its keyboard shortcuts, as <li> elements
//   settingsOf(obj)           a table's settings from a lobby form or listing ({variant, lbb})
//   settingsFields(form, lb)  the lobby form's controls for them (they write into form)
//   describeSettings(t)       the settings in words (' · free-stud · little black book')
//   joinFlags(t)              the command-line flags for the game and them (' --variant free-stud')
//   header(st)                the header's parts about the game (round, phase...)
//   onState(prev, st)         a new state came (to forget a choice of a decision gone)
//   renderBoard(st)           section#board
//   renderSeats(st)           the players' panel
//   renderDecision(st)        section#decision: the decision due, or what the table waits for
//   resultColumns             [{title, cell(seat)}]: the results' columns after the score
//   compareSeats(a, b)        the results' order (best first)
//   formatScore(n)            a score in the game's unit
//   onKey(e, st), onEscape()  its keys; true when taken

import {$, h, ui, hooks, seatName, post, focusFirst} from './kit.js';
import * as board from './board/board.js';

function connect() {
  const es = new EventSource('/api/events');
  es.addEventListener('state', (ev) => {
    const st = JSON.parse(ev.data);
    ui.connected = true;
    ui.log = ui.log.slice(0, st.log_start).concat(st.log);
    if (st.clock) ui.skew = st.clock.now_ms - Date.now();
    const prev = ui.state;
    ui.state = st;
    board.onState(prev, st);
    render();
  });
  es.onerror = () => {
    ui.connected = false;
    renderAlerts();
    // Without the session key the stream is refused: say so, rather than retry forever.
    fetch('/api/state').then((r) => {
      if (r.status === 403) { ui.noKey = true; es.close(); renderAlerts(); }
    }).catch(() => {});
  };
}

// ---- rendering

function render() {
  const st = ui.state;
  if (!st) return;
  const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  const logScroll = $('#log');
  const atBottom = !logScroll || logScroll.scrollTop + logScroll.clientHeight >= logScroll.scrollHeight - 8;
  document.body.dataset.mode = st.mode;
  renderTop(st);
  renderAlerts();
  const main = $('#main');
  const views = {lobby: renderLobby, waiting: renderWaiting, setup: renderSetup, game: renderTable, over: renderTable};
  main.replaceChildren(...[].concat((views[st.mode] || renderWaiting)(st)));
  const log = $('#log');
  if (log && atBottom) log.scrollTop = log.scrollHeight;
  // Keep the focus where it was, or move it to a new decision.
  const d = st.decision;
  if (d && d.id !== ui.decisionID) {
    ui.decisionID = d.id;
    $('#announce').textContent = d.prompt || ''; // for screen readers: a decision is yours
    const first = $('#decision button:not([disabled]), #decision input');
    if (first && !isTyping()) first.focus();
  } else if (focusKey) {
    const el = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (el) el.focus();
  }
  if (!document.body.dataset.ready) {
    document.body.dataset.ready = '1';
    document.body.dataset.readyMs = String(Math.round(performance.now())); // first render, from navigation start
  }
}
hooks.render = render;

function isTyping() {
  const a = document.activeElement;
  return a && (a.tagName === 'INPUT' && a.type === 'text' || a.tagName === 'SELECT' || a.tagName === 'TEXTAREA');
}

function renderTop(st) {
  const parts = [];
  if (st.table) parts.push(h('span.table-name', {}, 'Table ', h('strong', {}, st.table.name)));
  if (st.game) parts.push(board.header(st));
  if (st.me) parts.push(h('span.me', {}, st.me.name + (st.me.seat >= 0 ? ` · seat ${st.me.seat}` : '')));
  $('#where').replaceChildren(...parts.flat());
  updateClock();
}

const mmss = (secs) => `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;

// updateClock shows whose turn it is and for how long; it runs every second.
function updateClock() {
  const st = ui.state;
  const el = $('#clock');
  if (!st || !st.clock) { el.replaceChildren(); el.className = ''; return; }
  const c = st.clock;
  const now = Date.now() + ui.skew;
  const secs = Math.max(0, Math.floor((now - c.since_ms) / 1000));
  const limit = Math.floor(c.timeout_ms / 1000);
  const mine = c.due === st.me.seat;
  const who = mine ? 'Your turn' : seatName(st, c.due) + "'s turn";
  el.className = mine ? 'mine' : '';
  if (secs > limit / 2) el.className += ' late';
  el.replaceChildren(h('span', {}, who), ' ', h('span.time', {}, mmss(secs)), h('span.limit', {}, ` / ${mmss(limit)}`));
  renderAlerts();
}

function clockAlerts(st) {
  const c = st.clock;
  if (!c) return [];
  const secs = (Date.now() + ui.skew - c.since_ms) / 1000;
  const limit = c.timeout_ms / 1000;
  if (c.due !== st.me.seat && secs > limit / 2) {
    return [{level: 'warn', text: `${seatName(st, c.due)} has been silent for ${Math.floor(secs)} s. A player silent for ${Math.round(limit)} s is named as gone and the table stops.`}];
  } else if (c.due === st.me.seat && st.decision && secs > limit) {
    return [{level: 'error', text: 'Your time is up: the other players\' nodes now name you as gone and stop the table, so a move of yours can no longer count.'}];
  } else if (c.due === st.me.seat && st.decision && limit - secs < Math.min(30, limit / 3)) {
    return [{level: 'warn', text: `Your turn: ${Math.max(0, Math.floor(limit - secs))} s left before the table names you as gone.`}];
  }
  return [];
}

function renderAlerts() {
  const st = ui.state;
  const box = $('#alerts');
  const alerts = [];
  if (ui.noKey) alerts.push({level: 'error', text: 'This page needs its key: open the address that corruption printed (http://127.0.0.1:…/?key=…).'});
  else if (!ui.connected && !ui.left) alerts.push({level: 'warn', text: 'The connection to your node is lost; trying again…'});
  if (st) alerts.push(...(st.alerts || []), ...clockAlerts(st));
  if (ui.error) alerts.push({level: 'error', text: ui.error});
  const key = JSON.stringify(alerts);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...alerts.map((a) => h('p.alert.' + a.level, {}, a.text)));
}

// ---- lobby

function renderLobby(st) {
  const lb = st.lobby;
  // The form keeps what the person typed across updates of the list.
  const f = ui.form || (ui.form = Object.assign({table: lb.defaults.table, players: lb.defaults.players}, board.settingsOf(lb.defaults)));
  const form = h('form#create-form.panel', {onsubmit: (e) => {
    e.preventDefault();
    post('/api/lobby/create', Object.assign({table: f.table, players: Number(f.players)}, board.settingsOf(f))).catch(() => {});
  }},
  h('h2', {}, 'Create a table'),
  h('label', {}, 'Name ', h('input#table-name', {name: 'table', type: 'text', value: f.table, maxlength: 64, required: true, dataset: {key: 'table-name'},
    oninput: (e) => { f.table = e.target.value; }})),
  h('label', {}, 'Players ', h('select#players', {name: 'players', dataset: {key: 'players'}, onchange: (e) => { f.players = Number(e.target.value); }},
    [3, 4, 5, 6, 7].filter((n) => n >= lb.bots + 1).map((n) => h('option', {value: n, selected: n === Number(f.players)}, n)))),
  board.settingsFields(f, lb),
  lb.bots ? h('p.hint', {}, `${lb.bots} local bot${lb.bots > 1 ? 's' : ''} will sit with you.`) : null,
  h('button#create', {type: 'submit', dataset: {key: 'create'}}, 'Create and sit'));

  const rows = lb.tables.map((t) => h('li.lobby-table', {dataset: {table: t.table}},
    h('div', {}, h('strong', {}, t.table), ` · ${t.players} players${board.describeSettings(t)}`),
    h('div.seated', {}, `${t.seated.length} of ${t.players} seated: ${t.seated.join(', ')}`),
    h('button.join', {type: 'button', disabled: !t.room, dataset: {key: 'join:' + t.table, table: t.table},
      onclick: () => post('/api/lobby/join', Object.assign({table: t.table, players: t.players}, board.settingsOf(t))).catch(() => {})}, t.full ? 'Full' : (t.room ? 'Join' : 'No room for your bots'))));
  const list = h('section#lobby-list.panel', {},
    h('h2', {}, 'Tables on your network'),
    rows.length ? h('ul', {}, rows) : h('p.hint', {}, 'No open table heard yet. Tables that players on your network create appear here as they announce themselves.'));
  return h('div.lobby', {}, h('p.intro', {}, `Welcome, ${st.me.name}. Create a table, or join one that another player on your network opened. The game starts as soon as every seat is taken.`), h('div.lobby-grid', {}, form, list));
}

function renderWaiting(st) {
  const t = st.table;
  if (!t) return h('p.loading', {}, 'Connecting to your node…');
  const members = t.members || [];
  return h('section.panel.waiting', {},
    h('h2', {}, `Table ${t.name}`),
    h('p', {}, `${t.players} players${board.describeSettings(t)}`),
    h('p#seats-filled', {}, `${members.length} of ${t.players} seated: ${members.join(', ') || 'nobody yet'}.`),
    h('progress', {max: t.players, value: members.length}),
    h('p.hint', {}, `The game starts as soon as ${t.players} players are here. Others join from their lobby, or with: `,
      h('code', {}, `corruption play --table '${t.name}' --players ${t.players}${board.joinFlags(t)}`)));
}

function renderSetup(st) {
  const c = st.clock;
  return h('section.panel.waiting', {},
    h('h2', {}, `Table ${st.table.name}: setting up`),
    h('p', {}, 'Seated: ' + st.seats.map((s) => s.name + (s.me ? ' (you)' : '')).join(', ') + '.'),
    h('p', {}, board.setupText),
    h('p.hint', {}, `Entry ${st.table.entries}${c ? ' · waiting for ' + seatName(st, c.due) : ''}`));
}

// ---- the table

function renderTable(st) {
  if (!st.game) return renderSetup(st);
  const side = h('aside#side', {}, board.renderSeats(st), renderLog(st));
  const bottom = st.mode === 'over' ? renderResults(st) : board.renderDecision(st);
  return h('div.table-layout', {}, board.renderBoard(st), side, bottom);
}

function renderLog() {
  let round = -1;
  const items = [];
  for (const l of ui.log) {
    if (l.round && l.round !== round) {
      round = l.round;
      items.push(h('li.round', {}, `Round ${round}`));
    }
    items.push(h('li.' + (l.kind || 'note'), {}, l.text));
  }
  return h('section.panel.log-panel', {'aria-label': 'Game log'}, h('h2', {}, 'Game log'), h('ol#log', {tabindex: 0, dataset: {key: 'log'}}, items));
}

function renderResults(st) {
  const r = st.result;
  const ranked = [...st.seats].sort(board.compareSeats);
  const winners = st.seats.filter((s) => s.winner).map((s) => s.name + (s.me ? ' (you)' : ''));
  const cols = board.resultColumns;
  const box = h('section#results.panel', {'aria-label': 'Results'},
    h('h2', {}, 'Final results'),
    winners.length ? h('p.winners', {}, winners.length === 1 ? `${winners[0]} wins.` : `${winners.join(' and ')} share the win.`) : null,
    h('table#final', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Player'), h('th.num', {}, 'Score'), cols.map((c) => h('th', {}, c.title)))),
      h('tbody', {}, ranked.map((s) => h('tr', {class: ['seat-' + s.seat, s.me ? 'me' : '', s.winner ? 'winner' : ''].filter(Boolean).join(' '), dataset: {seat: s.seat}},
        h('td', {}, h('span.swatch', {}), s.name, s.me ? ' (you)' : ''),
        h('td.num.final-score', {dataset: {seat: s.seat, value: s.score || 0}}, board.formatScore(s.score || 0)),
        cols.map((c) => h('td', {}, c.cell(s))))))));
  if (!r) {
    box.append(h('p.audit.pending', {}, 'Every player signs off the final state; then your node checks the whole log…'));
    return box;
  }
  box.append(h('p#audit', {class: 'audit ' + (r.valid ? 'valid' : 'invalid'), dataset: {valid: r.valid ? '1' : '0'}}, r.audit));
  if (r.verdict) box.append(h('p.alert.error', {}, r.verdict));
  if (r.digest) box.append(h('p.digest', {}, 'Final digest: ', h('code', {}, r.digest)));
  box.append(ui.left ? h('p.hint', {}, 'You left. You may close this tab.')
    : h('button#leave', {type: 'button', dataset: {key: 'leave'}, onclick: () => { post('/api/quit', {}).then(() => { ui.left = true; render(); }).catch(() => {}); }}, 'Leave the table'));
  return box;
}

// ---- keyboard

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || isTyping()) return;
  const st = ui.state;
  if (e.key === '?') { toggleHelp(); e.preventDefault(); return; }
  if (e.key === 'Escape') {
    if (!$('#help').hidden) { toggleHelp(); return; }
    board.onEscape();
    return;
  }
  const k = e.key.toLowerCase();
  if (k === 'l') { focusFirst('#log'); return; }
  if (k === 'b') { focusFirst('#board'); return; }
  if (k === 'd') { focusFirst('#decision button:not([disabled]), #results button'); return; }
  if (!st || !st.decision) return;
  if (board.onKey(e, st)) { e.preventDefault(); return; }
  if (/^[1-9]$/.test(e.key)) {
    const btns = [...document.querySelectorAll('#decision button.choice')].filter((b) => $('kbd', b) && $('kbd', b).textContent === e.key);
    if (btns.length && !btns[0].disabled) { btns[0].click(); e.preventDefault(); }
  }
});

function toggleHelp() {
  const help = $('#help');
  help.hidden = !help.hidden;
  $('#help-button').setAttribute('aria-expanded', String(!help.hidden));
}

document.title = board.title;
$('#title').textContent = board.title;
$('#help ul').append(...board.helpItems());
$('#help-button').addEventListener('click', toggleHelp);
setInterval(updateClock, 1000);
connect();
