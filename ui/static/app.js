// The table page's shell: renders the State that its seat streams (GET /api/events) and sends
// the person's choices (POST /api/move, /api/lobby/..., /api/dial, /api/quit), all of it
// through the page's one door to its seat, api.js (over HTTP to the laptop's node, or in
// process to the browser seat). The game's own part, the board, is the module
// boards/GAME/board.js of the table's game, loaded when the page first needs it (the lobby
// loads every game's it offers, for their settings). No framework, no build step. The page
// speaks the languages of lang/*.json (each board's words are in boards/GAME/lang/*.json):
// the browser's, or the one the person picks.
//
// What a board module exports: docs/UI.md, "A board's module".
//
// The table's layout is the shell's: the board, the players and the log beside it, the
// decision under the board; at 1366x768 all of it fits the window without scrolling the page
// (the board and the log scroll inside when a table is crowded), and below 1000 px the parts
// stack and the decision is a sheet at the bottom of the screen.

import {$, h, morph, ui, hooks, seatName, post, focusFirst, t, words, withLang, kbdText, iso, shellQuote, chatClass, chatParts, closeTips} from './kit.js';
import * as api from './api.js';

const langs = ['en', 'es', 'fr'];
const store = api.store;

// chooseLang is the language the person picked while a phone's seat was starting (the seat's
// loader keeps it), or picked before, or the browser's first we speak.
function chooseLang() {
  const picked = globalThis.corruptionSeatLang;
  if (langs.includes(picked)) {
    store.set('table.lang', picked);
    return picked;
  }
  const saved = store.get('table.lang');
  if (langs.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const code = String(l).toLowerCase().split(/[-_]/)[0];
    if (langs.includes(code)) return code;
  }
  return 'en';
}

// loadWords loads the shell's words in lang, and those of every board loaded so far.
async function loadWords(lang) {
  const [shell] = await Promise.all([api.staticJSON(`/static/lang/${lang}.json`),
    ...Object.keys(boards).map((g) => loadBoard(g, lang).catch(() => null))]);
  words.shell = (shell && shell.words) || {};
  ui.lang = lang;
  document.documentElement.lang = lang;
  boardWords();
}

// applyStatic fills the page's fixed parts in its language, and the board's.
function applyStatic() {
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll('[data-t-title]')) el.title = t(el.dataset.tTitle);
  if (board) {
    document.title = board.title;
    $('#title').textContent = board.title;
  }
  $('#lang').value = ui.lang;
  $('#help-list').replaceChildren(
    ...['help.tab', 'help.first', 'help.choices', 'help.places'].map((k) => h('li', {}, kbdText(t(k)))),
    ...(board ? board.helpItems() : []));
  $('#rules-button').hidden = !words.rules;
  const extra = board && board.rulesExtra ? board.rulesExtra() : [];
  $('#rules-body').replaceChildren(...[].concat(extra),
    ...(words.rules || []).map((sec) => h('section.rule', {}, h('h3', {}, sec.title), (sec.text || []).map((p) => h('p', {}, p)))));
}

// ---- the boards: each game's module, words and styles, loaded once the page needs them

const boards = {};   // game -> {mod, words: {lang: {words, rules}}}
let board = null;    // the module of the board drawn now
let boardGame = '';  // its game

const boardDir = (game) => `/static/boards/${encodeURIComponent(game)}/`;

// loadBoard loads game's board module, and its words in lang.
async function loadBoard(game, lang) {
  if (!boards[game]) {
    const mod = await import(`./boards/${encodeURIComponent(game)}/board.js`);
    boards[game] = boards[game] || {mod, words: {}};
  }
  const b = boards[game];
  if (!b.words[lang]) b.words[lang] = (await api.staticJSON(`${boardDir(game)}lang/${lang}.json`)) || {};
  return b;
}

// boardWords makes the words of the board drawn now the page's.
function boardWords() {
  const w = (boards[boardGame] && boards[boardGame].words[ui.lang]) || {};
  words.board = w.words || {};
  words.rules = w.rules || null;
}

// useBoard draws game's board (loaded) from now on: its module, its words and its styles.
function useBoard(game) {
  if (!boards[game] || game === boardGame) return;
  board = boards[game].mod;
  boardGame = game;
  boardWords();
  let css = $('#board-css');
  if (!css) {
    css = h('link#board-css', {rel: 'stylesheet'});
    document.head.append(css);
  }
  css.href = boardDir(game) + 'board.css';
  applyStatic();
  lastDrawn = null;
}

// inBoard is fn(module) run with the words of game's board (null when it is not loaded): for a
// board's functions that only read, such as its title or a table's settings in words.
function inBoard(game, fn) {
  const b = boards[game];
  if (!b) return fn(null);
  const saved = [words.board, words.rules];
  words.board = (b.words[ui.lang] || {}).words || {};
  try { return fn(b.mod); } finally { [words.board, words.rules] = saved; }
}

const gameTitle = (game) => inBoard(game, (m) => (m && m.title) || game);

// formGame is the game the lobby's form shows.
const formGame = (lb) => (ui.form && ui.form.game) || lb.game;

// gameOf is the game whose board draws st: the table's, or in the lobby the form's.
const gameOf = (st) => (st.table ? st.table.game : st.lobby ? formGame(st.lobby) : boardGame);

// gamesOf are the games st needs boards of: the table's, or in the lobby every game offered
// and listed.
function gamesOf(st) {
  if (!st.lobby) return [gameOf(st)].filter(Boolean);
  return [...new Set([formGame(st.lobby), ...st.lobby.games.map((g) => g.game), ...st.lobby.tables.map((tb) => tb.game)])];
}

// ---- the state

let stream = null, streamGen = 0, taking = Promise.resolve();

function connect() {
  if (stream) stream.close();
  ui.fresh = true;
  const gen = ++streamGen;
  const s = api.events(withLang('/api/events'), {state: (data) => {
    const st = JSON.parse(data);
    // Each state in its turn, once the boards it needs are loaded; none of an older stream.
    taking = taking.then(() => Promise.all(gamesOf(st).map((g) => loadBoard(g, ui.lang).catch(() => null))))
      .then(() => { if (gen === streamGen) take(st, s); })
      .catch((e) => console.error(e));
  }}, () => {
    ui.connected = false;
    renderAlerts();
    // Without the session key the stream is refused: say so, rather than retry forever.
    api.request('GET', '/api/state').then((r) => {
      if (r.status === 403) { ui.noKey = true; s.close(); renderAlerts(); }
    }).catch(() => {});
  });
  stream = s;
}

// take draws a state of the stream s.
function take(st, s) {
  // A rematch: the person sits at a new table, and the page starts again from its start.
  if (ui.state && st.table_gen !== ui.state.table_gen) { s.close(); location.reload(); return; }
  useBoard(gameOf(st));
  if (!board || boardGame !== gameOf(st)) return; // its board did not load: the next state tries again
  ui.connected = true;
  // A new stream (another language, a reconnection) sends the log again from its start.
  if (ui.fresh || st.log_start < ui.log.length) ui.logGen = (ui.logGen || 0) + 1;
  ui.log = ui.log.slice(0, st.log_start).concat(st.log);
  if (st.clock) ui.skew = st.clock.now_ms - Date.now();
  const prev = ui.state;
  ui.state = st;
  board.onState(prev, st);
  if (pressed) drawLater = true; // drawn once the click is taken
  else drawSoon();
  ui.fresh = false;
}

// drawSoon draws the latest state before the next frame. A table's states come in bursts (a
// bot's move is several entries, each a state, a few milliseconds apart): each is taken as it
// comes (its log lines, the board's onState), but the page is drawn once a frame, with the
// last of them, not once a state. A hidden tab draws no frames: a timer draws it all the
// same, its title and alerts kept up to date.
let drawPending = false;
function drawSoon() {
  if (drawPending) return;
  drawPending = true;
  const draw = () => { if (drawPending) render(); };
  requestAnimationFrame(draw);
  setTimeout(draw, 100);
}

async function switchLang(lang) {
  if (!langs.includes(lang) || lang === ui.lang) return;
  store.set('table.lang', lang);
  await loadWords(lang);
  applyStatic();
  lastDrawn = null;
  connect(); // the server tells the game, the log and the alerts in the new language
}

// ---- rendering

let lastDrawn = null; // the mode, language and board the main part was built for
const drawnKey = (st) => `${st.mode}|${ui.lang}|${boardGame}`;

// A click is a press and a release on the same element: a state arriving between the two is
// not drawn at once (it would replace the button under the pointer, and the click would be
// lost), but once the click has been taken.
let pressed = false, drawLater = false;
addEventListener('pointerdown', () => { pressed = true; }, true);
const released = () => setTimeout(() => {
  pressed = false;
  if (drawLater) { drawLater = false; render(); }
}, 0);
for (const ev of ['pointerup', 'pointercancel']) addEventListener(ev, released, true);
addEventListener('blur', released);

function render() {
  drawPending = false;
  const st = ui.state;
  if (!st || !board) return;
  const active = document.activeElement;
  const focusKey = active && active.dataset ? active.dataset.key : null;
  document.body.dataset.mode = st.mode;
  document.body.dataset.lang = st.lang; // the language the server's words were told in
  renderTop(st);
  renderAlerts();
  renderPause(st);
  if (ui.quit) {
    const main = $('#main');
    if (!$('#quit-done', main)) main.replaceChildren(h('section#quit-done.panel.waiting', {}, h('h2', {}, t('quit.title')), h('p', {}, t('quit.text'))));
  } else if ((st.mode === 'game' || st.mode === 'over') && st.game) {
    renderTable(st);
  } else {
    const views = {name: renderName, lobby: renderLobby, waiting: renderWaiting, setup: renderSetup, game: renderSetup, over: renderStopped};
    const view = (views[st.mode] || renderWaiting)(st);
    const main = $('#main');
    if (main.firstElementChild !== view || main.childElementCount !== 1) main.replaceChildren(view);
  }
  lastDrawn = drawnKey(st);
  // Keep the focus where it was, or move it to a new decision.
  const d = st.decision;
  if (d && d.id === ui.decisionID && st.lang === ui.lang && ui.announced !== ui.lang) {
    // The same decision in another language (once the state speaks it): the announcement
    // speaks it too.
    ui.announced = ui.lang;
    $('#announce').textContent = d.prompt || '';
  }
  if (d && d.id !== ui.decisionID) {
    ui.decisionID = d.id;
    ui.announced = st.lang;
    $('#announce').textContent = d.prompt || '';
    const first = $('#decision button.choice:not([disabled]), #decision button:not([disabled]), #decision input');
    if (first && !isTyping() && !drawerOpen()) first.focus({preventScroll: true});
    revealAsked();
  } else if (focusKey && document.activeElement !== active) {
    const el = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (el) el.focus({preventScroll: true});
  }
  // The game's end: once its results have their buttons, a focus left nowhere (on a decision's
  // choice that went away) moves to the first (Rematch, or Leave), as Shift+D does; a focus
  // the person put elsewhere stays there.
  const actions = st.mode === 'over' ? $('#results .actions button') : null;
  if (actions && !ui.resultsFocused) {
    ui.resultsFocused = true;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost && !isTyping() && !drawerOpen()) actions.focus({preventScroll: true});
  }
  if (!document.body.dataset.ready) {
    document.body.dataset.ready = '1';
    document.body.dataset.readyMs = String(Math.round(performance.now())); // first render, from navigation start
  }
}
hooks.render = render;

function isTyping() {
  const a = document.activeElement;
  return a && ((a.tagName === 'INPUT' && a.type === 'text') || a.tagName === 'SELECT' || a.tagName === 'TEXTAREA');
}

const narrow = () => window.matchMedia('(max-width: 999px)').matches;
const drawerOpen = () => !$('#rules').hidden || !$('#help').hidden;

// revealAsked brings what a new decision is about into sight on a narrow screen, above the
// decision's sheet.
function revealAsked() {
  if (!narrow()) return;
  const el = $('#board .card.current, #board .spot.focus, #board .spot.open, #board .target');
  const slot = $('#decision-slot');
  if (!el || !slot) return;
  // The sheet's height now, before its ResizeObserver tells it after this frame: the page's
  // room below the board (main's padding) must be there to scroll the card above the sheet.
  setSheet(slot.offsetHeight);
  const r = el.getBoundingClientRect(), top = slot.hidden ? innerHeight : slot.getBoundingClientRect().top;
  if (r.bottom > top - 8) window.scrollBy(0, r.bottom - top + 16);
  else if (r.top < 0) window.scrollBy(0, r.top - 16);
}

// setSheet sets --sheet on the two elements that read it (on the body, it restyled the page).
function setSheet(px) {
  const v = px + 'px';
  for (const el of [document.documentElement, $('#main')]) {
    if (el && el.style.getPropertyValue('--sheet') !== v) el.style.setProperty('--sheet', v);
  }
}

function renderTop(st) {
  const parts = [];
  if (st.table) parts.push(h('span.table-name', {}, t('top.table'), ' ', h('strong', {}, h('bdi', {}, st.table.name))));
  if (st.game) parts.push(board.header(st));
  if (st.me) parts.push(h('span.me', {title: t('top.me')}, st.me.name));
  morph($('#where'), parts);
  updateClock();
}

const mmss = (secs) => `${Math.floor(secs / 60)}:${String(Math.floor(secs) % 60).padStart(2, '0')}`;

// timing is the clock's figures now, in seconds: elapsed on this turn, the turn's limit (the
// allowance when the table keeps a time bank, else the timeout), the bank left (null without
// one) and the deadline (the limit and the bank).
function timing(st) {
  const c = st.clock;
  const secs = Math.max(0, (Date.now() + ui.skew - c.since_ms) / 1000);
  const hasAllowance = typeof c.allowance_ms === 'number';
  const hasBank = typeof c.bank_ms === 'number';
  const limit = c.no_limit ? Infinity : (hasAllowance ? c.allowance_ms : c.timeout_ms) / 1000;
  const bank = hasBank ? c.bank_ms / 1000 : null;
  const bankLeft = hasBank ? Math.max(0, bank - Math.max(0, secs - limit)) : null;
  return {secs, limit, bank, bankLeft, deadline: limit + (hasBank ? bank : 0)};
}

// updateClock shows whose turn it is and, at a table with a clock, the time left on this
// decision and then on the player's time bank (a countdown); at a table without one (the demo),
// how long the table has been waiting. It runs every second.
function updateClock() {
  const st = ui.state;
  const el = $('#clock');
  if (!st || !st.clock) { el.replaceChildren(); el.className = ''; el.removeAttribute('title'); return; }
  const c = st.clock;
  const tm = timing(st);
  const mine = c.due === st.me.seat;
  el.className = mine ? 'mine' : '';
  if (tm.secs > tm.limit || (tm.bank === null && tm.secs > tm.limit / 2)) el.className += ' late';
  const name = seatName(st, c.due);
  let text;
  if (c.no_limit) {
    text = t(mine ? 'clock.wait.you' : 'clock.wait', {name, time: mmss(tm.secs)});
  } else if (tm.secs <= tm.limit || tm.bankLeft === null) {
    text = t(mine ? 'clock.left.you' : 'clock.left', {name, time: mmss(Math.max(0, tm.limit - tm.secs))});
  } else {
    text = t(mine ? 'clock.bankleft.you' : 'clock.bankleft', {name, time: mmss(tm.bankLeft)});
  }
  morph(el, [h('span.time', {}, text)]);
  if (c.no_limit) el.title = t('clock.title.nolimit');
  else el.title = tm.bank !== null ? t('clock.title.bank', {limit: mmss(tm.limit), bank: mmss(tm.bank)}) : t(playsOn(st) ? 'clock.title.escrow' : 'clock.title', {limit: mmss(tm.limit)});
  renderAlerts();
}

// playsOn: a seat silent now would be played by a bot, and the others play on (the table
// escrows, the game is under way, and two players at least would stay); else the table stops.
function playsOn(st) {
  return !!(st.table && st.table.escrow && st.mode === 'game' && (st.seats || []).filter((s) => !s.open).length >= 3);
}

// openBadge says, in words, that a seat's player left (protocol/depart.go), or was caught
// cheating (protocol/convict.go), and that a bot plays it.
function openBadge(s) {
  return h(s.cheated ? 'span.open-seat.cheated' : 'span.open-seat', {dataset: {openSeat: s.seat}}, t(s.cheated ? 'seat.cheated' : 'seat.open'));
}

// markOpen marks each open seat in the board's players panel, on the board's row of that seat
// ([data-seat], at its .name); a board without one gets a list under its panel.
function markOpen(st, panel) {
  const open = (st.seats || []).filter((s) => s.open);
  const rest = [];
  for (const s of open) {
    const row = panel.querySelector(`[data-seat="${s.seat}"]`);
    const at = row && (row.querySelector('.name') || row.firstElementChild);
    if (at) at.append(' ', openBadge(s));
    else rest.push(h('li', {}, seatName(st, s.seat), ': ', openBadge(s)));
  }
  if (rest.length) panel.append(h('ul.open-seats', {}, rest));
  return panel;
}

function clockAlerts(st) {
  const c = st.clock;
  if (!c) return [];
  const tm = timing(st);
  const mine = c.due === st.me.seat;
  const on = playsOn(st) ? '.escrow' : '';
  if (!mine && tm.secs > tm.deadline / 2) {
    return [{level: 'warn', text: t('alert.silent' + on, {name: seatName(st, c.due), secs: Math.floor(tm.secs), limit: mmss(tm.deadline)})}];
  } else if (mine && st.decision && tm.secs > tm.deadline) {
    return [{level: 'error', text: t('alert.timeup' + on)}];
  } else if (mine && st.decision && tm.deadline - tm.secs < Math.min(30, tm.deadline / 3)) {
    return [{level: 'warn', text: t('alert.timeleft', {secs: Math.max(0, Math.floor(tm.deadline - tm.secs))})}];
  }
  return [];
}

function renderAlerts() {
  const st = ui.state;
  const box = $('#alerts');
  const alerts = [];
  if (ui.noKey) alerts.push({level: 'error', text: t('alert.nokey')});
  else if (!ui.connected && !ui.quit && ui.state) alerts.push({level: 'warn', text: t('alert.lost')});
  if (st) alerts.push(...(st.alerts || []), ...clockAlerts(st));
  if (ui.error) alerts.push({level: 'error', text: ui.error});
  const key = JSON.stringify(alerts);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...alerts.map((a) => h('p.alert.' + a.level, {}, a.text)));
}

// ---- lobby

// renderName asks the person's name first (a phone's page: the laptop gives none), with the
// page's languages, and says once what a locked screen does to the seat.
function renderName(st) {
  const old = $('#name');
  if (old && lastDrawn === drawnKey(st)) return old;
  const input = h('input#name-input', {type: 'text', name: 'name', autocomplete: 'nickname', spellcheck: 'false', enterkeyhint: 'go',
    'aria-describedby': 'name-hint', dataset: {key: 'name'}, oninput: (e) => { ui.nameTyped = e.target.value; }});
  input.value = ui.nameTyped !== undefined ? ui.nameTyped : (st.name_default || '');
  const names = {en: 'English', es: 'Español', fr: 'Français'};
  const lang = h('select#name-lang', {name: 'lang', dataset: {key: 'name-lang'}, onchange: (e) => {
    $('#lang').value = e.target.value;
    switchLang(e.target.value);
  }}, langs.map((l) => h('option', {value: l, lang: l, selected: l === ui.lang}, names[l])));
  return h('section#name.panel', {'aria-labelledby': 'name-title'},
    h('h2#name-title', {}, t('name.title')),
    h('form#name-form', {onsubmit: (e) => {
      e.preventDefault();
      post('/api/name', {name: input.value}).catch(() => {});
    }},
    h('div.field', {}, h('label', {for: 'name-input'}, t('name.label')), input),
    h('p#name-hint.hint', {}, t('name.hint')),
    h('div.field', {}, h('label', {for: 'name-lang'}, t('name.lang')), lang),
    h('div.actions', {}, h('button#name-go', {type: 'submit', dataset: {key: 'name-go'}}, t('name.go')))),
    api.transport === 'in-process' ? h('p#lock-note.note', {}, t('name.lock')) : null);
}

function renderLobby(st) {
  const lb = st.lobby;
  let root = $('#lobby');
  if (!root || lastDrawn !== drawnKey(st)) {
    root = h('div#lobby.lobby', {},
      h('p.intro', {}, t('lobby.intro', {name: st.me.name})),
      st.quit ? h('div.actions.lobby-quit', {}, quitButton()) : null,
      h('div.lobby-grid', {}, h('div.lobby-main', {}, lobbyForm(lb), lb.private ? privateJoinForm() : null),
        h('div.lobby-side', {}, h('section#lobby-list.panel', {'aria-labelledby': 'lobby-list-title'}), h('section#network.panel', {'aria-labelledby': 'network-title'}))));
  }
  const joining = $('#private-joining', root);
  if (joining) {
    joining.hidden = !lb.joining;
    joining.textContent = lb.join ? lb.join.text : '';
    joining.dataset.quiet = lb.join && lb.join.quiet ? '1' : '0';
  }
  const cancel = $('#private-cancel', root);
  if (cancel) cancel.hidden = !lb.joining;
  const go = $('#private-go', root);
  if (go) go.disabled = !!lb.joining;
  renderTables(st, $('#lobby-list', root));
  renderNetwork(st, $('#network', root));
  const side = $('.lobby-side', root);
  const old = $('#phones', root);
  if (old) old.remove();
  if (st.phones && side) side.prepend(phonesBox(st.phones));
  return root;
}

// lobbyForm creates a table: its game (each game's settings are its board's fields), name,
// players, and how many of the seats bots of this machine take.
function lobbyForm(lb) {
  if (ui.formGen !== ui.state.table_gen) { ui.form = null; ui.formGen = ui.state.table_gen; } // a new visit to the lobby: its defaults again
  const f = ui.form || (ui.form = {game: lb.game, table: lb.defaults.table, players: lb.defaults.players, bots: lb.bots, level: lb.level, settings: {}});
  const g = lb.games.find((x) => x.game === f.game) || lb.games[0];
  f.game = g.game;
  // The settings as typed, a game at a time (a board's fields write into its object).
  const set = f.settings[g.game] || (f.settings[g.game] = board.settingsOf(g.defaults));
  const lo = g.min_players || 2, hi = g.max_players || 8;
  f.players = Math.min(hi, Math.max(lo, Number(f.players)));
  f.bots = Math.min(f.players - 1, Math.max(0, Number(f.bots)));
  const counts = [];
  for (let n = lo; n <= hi; n++) counts.push(n);
  const bots = h('select#bots', {name: 'bots', 'aria-describedby': 'bots-hint', dataset: {key: 'bots'}, onchange: (e) => {
    f.bots = Number(e.target.value);
    $('#bots-hint').textContent = botsHint(f.bots);
  }});
  const botCounts = () => {
    f.bots = Math.min(f.bots, f.players - 1);
    const ns = [];
    for (let n = 0; n < f.players; n++) ns.push(n);
    bots.replaceChildren(...ns.map((n) => h('option', {value: n, selected: n === f.bots}, n)));
  };
  botCounts();
  return h('form#create-form.panel', {'aria-labelledby': 'create-title', onsubmit: (e) => {
    e.preventDefault();
    post('/api/lobby/create', Object.assign({game: f.game, table: f.table, players: Number(f.players), bots: Number(f.bots), level: f.level || ''}, board.settingsOf(set))).catch(() => {});
  }},
  h('h2#create-title', {}, t('lobby.create')),
  h('label', {}, t('lobby.game'), ' ', h('select#game', {name: 'game', dataset: {key: 'game'}, onchange: (e) => {
    f.game = e.target.value;
    useBoard(f.game); // the lobby is drawn again with that game's fields
    render();
  }},
    lb.games.map((x) => h('option', {value: x.game, selected: x.game === f.game}, gameTitle(x.game))))),
  h('label', {}, t('lobby.name'), ' ', h('input#table-name', {name: 'table', type: 'text', value: f.table, maxlength: 64, required: true, autocomplete: 'off', dataset: {key: 'table-name'},
    oninput: (e) => { f.table = e.target.value; }})),
  h('label', {}, t('lobby.players'), ' ', h('select#players', {name: 'players', dataset: {key: 'players'}, onchange: (e) => {
    f.players = Number(e.target.value);
    botCounts();
    $('#bots-hint').textContent = botsHint(f.bots);
    $('#escrow-promise').textContent = promise(lb, f.players);
  }},
    counts.map((n) => h('option', {value: n, selected: n === Number(f.players)}, n)))),
  board.settingsFields(set, g),
  // The bots' row: how many, and how well they play (easy, normal, hard).
  h('div.bots-row', {}, h('label', {}, t('lobby.bots.field'), ' ', bots),
    (lb.levels || []).length ? h('label', {}, ' ', t('lobby.bots.level'), ' ',
      h('select#level', {name: 'level', 'aria-describedby': 'level-hint', dataset: {key: 'level'}, onchange: (e) => {
        f.level = e.target.value;
        $('#level-hint').textContent = t('lobby.level.' + f.level + '.hint');
      }}, lb.levels.map((l) => h('option', {value: l, selected: l === f.level}, t('lobby.level.' + l))))) : null),
  (lb.levels || []).length ? h('p#level-hint.hint', {}, t('lobby.level.' + f.level + '.hint')) : null,
  h('p#bots-hint.hint', {}, botsHint(f.bots)),
  h('button#create', {type: 'submit', dataset: {key: 'create'}}, t('lobby.create.go')),
  h('p#escrow-promise.hint', {}, promise(lb, f.players)));
}

// botsHint says who takes the seats of a table with n bots of this machine.
const botsHint = (n) => (n === 0 ? t('lobby.bots.none') : t(n === 1 ? 'lobby.bots.one' : 'lobby.bots', {n}));

// promise is what a table of n players that the person's node creates promises: with escrow
// (lb.escrow seats or more) the others play on when a player leaves, and all of them together
// could read a player's cards; without, nobody could, and a player who leaves ends the table.
function promise(lb, n) {
  return t(lb.escrow && Number(n) >= lb.escrow ? 'escrow.on' : 'escrow.off');
}

// privateJoinForm joins a private table by its join code, as --join CODE does: the node looks
// for the table's creator and runs the exchange; a refusal comes back in plain words.
// While the node looks, the lobby says how the search goes (the server's words: looking, no
// table heard yet, a table answered) with Cancel.
function privateJoinForm() {
  const input = h('input#private-code', {type: 'text', name: 'code', autocomplete: 'off', spellcheck: 'false', required: true,
    placeholder: '2s-fn8-de6', 'aria-describedby': 'private-intro', dataset: {key: 'private-code'}});
  return h('form#private-form.panel', {'aria-labelledby': 'private-title', onsubmit: (e) => {
    e.preventDefault();
    const code = input.value.trim();
    if (!code) return;
    post('/api/lobby/private', {code}).catch(() => {});
  }},
  h('h2#private-title', {}, t('private.title')),
  h('p#private-intro.hint', {}, t('private.intro')),
  h('label', {for: 'private-code'}, t('private.code')),
  h('div.dial-row', {}, input, h('button#private-go', {type: 'submit', dataset: {key: 'private-go'}}, t('private.go'))),
  h('p#private-joining.hint', {role: 'status', hidden: true}),
  h('button#private-cancel', {type: 'button', hidden: true, 'aria-describedby': 'private-joining', dataset: {key: 'private-cancel'},
    onclick: () => post('/api/lobby/private/cancel', {}).catch(() => {})}, t('private.cancel')));
}

// privateCodes shows the creator of a private table its join code(s), each copyable, and the
// failed attempts to join that its node counted.
function privateCodes(pv) {
  const codeRow = (id, label, value) => {
    const field = h('input#' + id + '.code', {type: 'text', readonly: true, value, spellcheck: 'false', dataset: {key: id},
      onfocus: (e) => e.target.select()});
    const copy = h('button.copy', {type: 'button', dataset: {key: 'copy-' + id}, 'aria-label': t('private.copy.label', {what: label}), onclick: () => {
      const done = () => { ui.copied = id; render(); };
      field.select();
      if (navigator.clipboard) navigator.clipboard.writeText(value).then(done, () => { document.execCommand('copy'); done(); });
      else { document.execCommand('copy'); done(); }
    }}, t('private.copy'));
    return h('div.code-row', {}, h('label', {for: id}, label), h('div.dial-row', {}, field, copy));
  };
  const n = pv.failed;
  return h('div#private-codes', {},
    codeRow('join-code', t('private.yours'), pv.code),
    pv.internet ? codeRow('internet-code', t('private.internet'), pv.internet) : null,
    h('p#private-copied.hint', {role: 'status', dataset: {copied: ui.copied || ''}}, ui.copied ? t('private.copied') : ''),
    h('p.hint', {}, t('private.share')),
    h('p#private-failed', {role: 'status', dataset: {failed: n}}, n === 0 ? t('private.failed.none') : t(n === 1 ? 'private.failed.one' : 'private.failed', {n})));
}

// peerConns lists how the node reaches each connected node: direct, or through a relay.
function peerConns(net) {
  const conns = (net && net.conns) || [];
  if (!conns.length) return null;
  const short = (id) => id.length > 14 ? '…' + id.slice(-8) : id;
  return h('div#conns', {}, h('p.hint', {}, t('net.conns')),
    h('ul.conns', {}, conns.map((c) => h('li', {dataset: {peer: c.id, kind: c.kind}}, h('code', {title: c.id}, short(c.id)), ': ', t(c.kind === 'relayed' ? 'net.relayed' : 'net.direct')))));
}

function renderTables(st, box) {
  const lb = st.lobby, net = st.network;
  const rows = lb.tables.map((tb) => h('li.lobby-table', {dataset: {table: tb.table, game: tb.game}},
    h('div', {}, h('strong', {}, h('bdi', {}, tb.table)), ' · ', h('span.game', {}, gameTitle(tb.game)), ' · ', t('lobby.table.players', {n: tb.players}),
      inBoard(tb.game, (m) => (m ? m.describeSettings(tb) : ''))),
    h('div.seated', {}, t('lobby.table.seated', {n: tb.seated.length, of: tb.players, names: tb.seated.join(', ')})),
    h('button.join', {type: 'button', disabled: !tb.room, dataset: {key: 'join:' + tb.table, table: tb.table},
      'aria-label': tb.room ? t('lobby.join.label', {table: iso(tb.table)}) : null,
      onclick: () => post('/api/lobby/join', Object.assign({game: tb.game, table: tb.table, players: tb.players}, inBoard(tb.game, (m) => (m ? m.settingsOf(tb) : {})))).catch(() => {})},
    tb.full ? t('lobby.full') : (tb.room ? t('lobby.join') : t('lobby.noroom')))));
  let empty = t('lobby.none');
  if (net && !net.mdns && net.peers === 0) empty = t('lobby.none.nomdns');
  else if (net && net.mdns) empty = t('lobby.none.mdns');
  box.replaceChildren(h('h2#lobby-list-title', {}, t('lobby.tables')),
    rows.length ? h('ul', {}, rows) : h('p#no-tables.hint', {}, empty));
}

// renderNetwork says how the node finds others, how many it reaches, its own address, and
// offers to dial one.
// phonesBox shows where phones join this machine's tables (--phones): the address as a QR
// code to scan, and as text.
// code to scan, and as text; how the phones' pages name this laptop (its name and the
// fingerprint of its key), and a button that gives phones a new address (a guest who had the
// old one is no longer welcome), asked twice.
function phonesBox(ph) {
  const renew = !ph.renew ? null : ui.renewing
    ? h('div#phones-renew-ask', {role: 'group', 'aria-labelledby': 'phones-renew-what'},
      h('p#phones-renew-what.hint', {}, t('phones.renew.what')),
      h('button#phones-renew-yes', {type: 'button', dataset: {key: 'phones-renew-yes'},
        onclick: () => { ui.renewing = false; post('/api/phones/renew', {}).then(render, render); }}, t('phones.renew.yes')),
      ' ',
      h('button#phones-renew-no', {type: 'button', dataset: {key: 'phones-renew-no'}, onclick: () => { ui.renewing = false; render(); }}, t('phones.renew.no')))
    : h('button#phones-renew', {type: 'button', dataset: {key: 'phones-renew'}, onclick: () => { ui.renewing = true; render(); }}, t('phones.renew'));
  return h('section#phones.panel', {'aria-labelledby': 'phones-title'},
    h('h2#phones-title', {}, t('phones.title')),
    ph.qr ? h('img#phones-qr', {src: ph.qr, width: 192, height: 192, alt: t('phones.qr')}) : null,
    h('p.hint', {}, t('phones.hint')),
    h('code#phones-url.addr', {}, ph.url),
    ph.fingerprint ? h('p#phones-laptop.hint', {}, t('phones.laptop', {name: iso(ph.laptop || ''), fp: ph.fingerprint})) : null,
    renew);
}

function renderNetwork(st, box) {
  const net = st.network;
  if (!net) { box.hidden = true; return; }
  box.hidden = false;
  const status = h('p#discovery', {dataset: {mdns: net.mdns ? '1' : '0', peers: net.peers}},
    net.mdns ? t('net.mdns') : t('net.nomdns'), ' ',
    h('strong#peer-count', {}, t(net.peers === 1 ? 'net.peers.one' : 'net.peers', {n: net.peers})));
  const addrs = sortAddrs(net.addrs || []);
  let dial = box.querySelector('#dial-form');
  if (!dial || box.dataset.lang !== ui.lang) {
    box.dataset.lang = ui.lang;
    const input = h('input#dial-addr', {type: 'text', name: 'addr', autocomplete: 'off', spellcheck: 'false', placeholder: '/ip4/192.168.1.20/tcp/4001/p2p/12D3KooW…', dataset: {key: 'dial-addr'}});
    dial = h('form#dial-form', {onsubmit: (e) => {
      e.preventDefault();
      const a = input.value.trim();
      if (!a) return;
      post('/api/dial', {addr: a}).then(() => { ui.dialed = a; input.value = ''; render(); }).catch(() => {});
    }},
    h('label', {for: 'dial-addr'}, t('net.dial')), h('div.dial-row', {}, input, h('button#dial', {type: 'submit', dataset: {key: 'dial'}}, t('net.dial.go'))));
  }
  const parts = [h('h2#network-title', {}, t('net.title')), status];
  const conns = peerConns(net);
  if (conns) parts.push(conns);
  // What only a table by address needs (this node's addresses, dialing another's) is behind a
  // disclosure: most players never need it.
  const more = [];
  if (addrs.length) more.push(h('p.hint', {}, t('net.yours')), h('ul#my-addr.addrs', {}, addrs.map((a) => h('li', {}, h('code.addr', {}, a)))));
  if (net.dial) more.push(dial);
  if (ui.dialed) more.push(h('p#dialed.hint', {}, t('net.dialing', {addr: ui.dialed})));
  if (more.length) {
    let det = box.querySelector('#net-more');
    const open = det ? det.open : !!ui.dialed;
    det = h('details#net-more', {open}, h('summary', {dataset: {key: 'net-more'}}, t('net.more')), ...more);
    parts.push(det);
  }
  box.replaceChildren(...parts);
}

// sortAddrs puts the node's addresses that other machines can reach first (loopback last).
function sortAddrs(addrs) {
  const local = (a) => /^\/ip4\/127\.|^\/ip6\/::1\//.test(a);
  return [...addrs].sort((a, b) => local(a) - local(b));
}

// joinHint is the command another player types to sit at table tb with the person.
function joinHint(st, tb) {
  const addr = st.network && sortAddrs(st.network.addrs || [])[0];
  return `corruption play --name ${t('hint.yourname')} --table ${shellQuote(tb.name)} --players ${tb.players}${board.joinFlags(tb)}${addr ? ' --peer ' + addr : ''}`;
}

// leaveButton leaves the table: the person is back in the lobby.
function leaveButton(text) {
  return h('button#leave', {type: 'button', dataset: {key: 'leave'}, onclick: (ev) => {
    ev.currentTarget.disabled = true;
    post('/api/leave', {}).catch(() => {});
  }}, text || t('leave'));
}

// quitButton quits the program (the laptop's page only: a phone's closes its tab).
function quitButton() {
  return h('button#quit.secondary', {type: 'button', dataset: {key: 'quit'}, onclick: () => {
    post('/api/quit', {}).then(() => { ui.quit = true; render(); }).catch(() => {});
  }}, t('quit'));
}

// rematchButton asks for a rematch: the node seats the person at the next table, and the
// page starts again there. without names the players it is played without (the cheaters of
// this table), or is empty.
function rematchButton(without) {
  return h('button#rematch', {type: 'button', dataset: {key: 'rematch'}, onclick: (ev) => {
    ev.currentTarget.disabled = true;
    post('/api/rematch', {}).catch(() => {});
  }}, without ? t('result.rematch.without', {names: without}) : t('result.rematch'));
}

function renderWaiting(st) {
  const tb = st.table;
  if (!tb) return h('p.loading', {}, t('loading'));
  const members = tb.members || [];
  return h('section.panel.waiting', {'aria-labelledby': 'waiting-title'},
    h('h2#waiting-title', {}, t('waiting.title', {table: iso(tb.name)})),
    h('p', {}, t('lobby.table.players', {n: tb.players}), board.describeSettings(tb)),
    tb.promise ? h('p#table-promise.hint', {}, tb.promise) : null,
    h('p#seats-filled', {}, t('waiting.seated', {n: members.length, of: tb.players, names: members.join(', ') || t('waiting.nobody')})),
    tb.full ? h('p#table-full.alert.warn', {role: 'status'}, t('waiting.full', {table: iso(tb.name), n: tb.players})) : null,
    h('progress', {max: tb.players, value: members.length, 'aria-label': t('waiting.progress')}),
    st.private ? privateCodes(st.private) : null,
    st.phones ? phonesBox(st.phones) : null,
    st.network ? h('p.hint', {}, t(st.network.peers === 1 ? 'net.peers.one' : 'net.peers', {n: st.network.peers})) : null,
    peerConns(st.network),
    st.private ? null : (tb.private ? h('p#private-joined.hint', {}, t('private.joined', {n: tb.players})) : h('p.hint', {}, t('waiting.hint', {n: tb.players}))),
    tb.private ? null : h('code#join-hint.join-hint', {}, joinHint(st, tb)),
    h('div.actions', {}, leaveButton()));
}

function renderSetup(st) {
  const c = st.clock;
  return h('section.panel.waiting', {},
    h('h2', {}, t('setup.title', {table: st.table ? iso(st.table.name) : ''})),
    h('p', {}, t('setup.seated', {names: (st.seats || []).map((s) => seatName(st, s.seat)).join(', ')})),
    h('p', {}, board.setup ? board.setup() : board.setupText),
    st.table && st.table.promise ? h('p#table-promise.hint', {}, st.table.promise) : null,
    h('p.hint', {}, t('setup.entry', {n: st.table ? st.table.entries : 0}), c ? ' · ' + t('setup.waiting', {name: seatName(st, c.due)}) : ''));
}

// renderPause shows the table's pause (POST /api/pause): a button in the header to ask for one
// while the game is under way, and when a player asks, a banner that says who and how many
// agree, with Agree and Keep playing.
function renderPause(st) {
  const p = st.pause;
  const key = JSON.stringify([p || null, ui.lang]);
  let ask = $('#pause-ask');
  if (!ask) {
    ask = h('button#pause-ask', {type: 'button', dataset: {key: 'pause-ask'}, onclick: () => answerPause(true)});
    $('#tools').prepend(ask);
  }
  let box = $('#pause');
  if (!box) {
    box = h('div#pause', {role: 'region'});
    $('#alerts').after(box);
  }
  if (box.dataset.drawn === key) return;
  box.dataset.drawn = key;
  ask.textContent = t('pause.ask');
  ask.title = t('pause.ask.title');
  ask.hidden = !p || !!p.asker || p.mine;
  box.setAttribute('aria-label', t('pause.label'));
  box.hidden = !p || !p.text;
  if (box.hidden) { box.replaceChildren(); return; }
  const parts = [h('span#pause-text', {}, p.text)];
  if (p.asker && !p.mine) parts.push(' ', h('button#pause-agree', {type: 'button', dataset: {key: 'pause-agree'}, onclick: () => answerPause(true)}, t('pause.agree')));
  if (p.asker) parts.push(' ', h('button#pause-keep', {type: 'button', dataset: {key: 'pause-keep'}, onclick: () => answerPause(false)}, t('pause.keep')));
  box.replaceChildren(h('p.alert.info', {}, ...parts));
}

function answerPause(agree) { post('/api/pause', {agree}).catch(() => {}); }

// renderStopped is the end of a table that never started its game.
function renderStopped(st) {
  return h('div.stopped', {}, renderResults(st));
}

// ---- the table

function renderTable(st) {
  let lay = $('#table-layout');
  if (!lay) {
    lay = h('div#table-layout.table-layout', {},
      h('div#board-slot.board-slot'),
      h('aside#side', {'aria-label': t('side.label')}, h('div#seats-slot'), logPanel()),
      h('div#decision-slot.decision-slot'));
    $('#main').replaceChildren(lay);
    logView.shown = 0;
    const ro = new ResizeObserver(() => setSheet($('#decision-slot').offsetHeight));
    ro.observe($('#decision-slot'));
  }
  const over = st.mode === 'over';
  // The whole table is built anew from the state, and morphed into what the page shows: only
  // what changed is touched (kit.js, morph).
  morph($('#board-slot'), [over ? renderResults(st) : null, board.renderBoard(st)]);
  morph($('#seats-slot'), [markOpen(st, board.renderSeats(st))]);
  morph($('#decision-slot'), over ? [] : [sheetToggle(), markDecision(st, board.renderDecision(st))]);
  $('#decision-slot').classList.toggle('folded', !!ui.sheetFolded && !over);
  $('#decision-slot').hidden = over;
  // --sheet follows the sheet's height through the ResizeObserver above, after the frame's
  // layout (and at once for a new decision: revealAsked): reading offsetHeight here would lay
  // the whole page out once more each state.
  if ($('.log-panel h2').dataset.lang !== ui.lang) {
    $('.log-panel h2').textContent = t('log.title');
    $('.log-panel h2').dataset.lang = ui.lang;
  }
  updateLog();
}

// markDecision gives the board's decision panel what every decision has, for the eye and for
// assistive technology alike: when a decision is the person's, the panel is the region "Your
// decision", described by its prompt line (the board's .prompt: what is asked and what the
// person may do), and busy (aria-busy) while a move is on its way or the board holds one back
// (its data-busy). A disabled control says why beside it (kit.js, why()).
function markDecision(st, panel) {
  if (!panel || !st.decision) return panel;
  panel.setAttribute('aria-label', t('decision.region'));
  const prompt = panel.querySelector('.prompt');
  if (prompt) {
    prompt.id = 'decision-prompt';
    panel.setAttribute('aria-describedby', 'decision-prompt');
  }
  panel.setAttribute('aria-busy', String(!!ui.sending || panel.dataset.busy === '1'));
  return panel;
}

// sheetToggle folds the decision's sheet on a narrow screen, to see the whole board.
function sheetToggle() {
  return h('button#sheet-toggle', {type: 'button', 'aria-expanded': String(!ui.sheetFolded), 'aria-controls': 'decision', dataset: {key: 'sheet-toggle'},
    onclick: () => { ui.sheetFolded = !ui.sheetFolded; render(); }}, ui.sheetFolded ? t('sheet.show') : t('sheet.hide'));
}

// The log keeps the reader's place: new lines are added at the end; the view follows them
// while the reader is at the end (or has not scrolled), else a button says how many are new and
// jumps there. Whether it follows is the reader's doing alone: a box that grows or shrinks
// keeps following.
const logView = {shown: 0, round: -1, unread: 0, follow: true};

function logPanel() {
  const list = h('ol#log', {tabindex: 0, dataset: {key: 'log'}, 'aria-label': t('log.title'), onscroll: () => {
    if (logView.settling) return;
    logView.follow = atEnd(list);
    if (logView.follow) { logView.unread = 0; showUnread(); }
  }});
  new ResizeObserver(() => { if (logView.follow) toEnd(list); }).observe(list);
  return h('section.panel.log-panel', {'aria-labelledby': 'log-title'}, h('h2#log-title', {}, t('log.title')), list,
    h('button#log-latest', {type: 'button', hidden: true, dataset: {key: 'log-latest'}, onclick: () => {
      logView.follow = true;
      toEnd(list);
      logView.unread = 0;
      showUnread();
      list.focus({preventScroll: true});
    }}));
}

const atEnd = (el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 8;

// toEnd scrolls the log to its last line (a scroll of the page's own, not the reader's).
function toEnd(list) {
  logView.settling = true;
  list.scrollTop = list.scrollHeight;
  requestAnimationFrame(() => { logView.settling = false; });
}

function updateLog() {
  const list = $('#log');
  if (!list) return;
  if (logView.shown > ui.log.length || list.dataset.gen !== String(ui.logGen)) {
    list.replaceChildren();
    list.dataset.gen = String(ui.logGen);
    logView.shown = 0;
    logView.round = -1;
    logView.unread = 0;
    logView.follow = true;
  }
  if (logView.shown === ui.log.length) return;
  const follow = logView.follow || logView.shown === 0;
  const items = [];
  for (const l of ui.log.slice(logView.shown)) {
    if (l.round && l.round !== logView.round) {
      logView.round = l.round;
      items.push(h('li.round', {}, t('log.round', {n: l.round})));
    }
    if ((l.kind === 'chat' || l.kind === 'chatme') && l.data) items.push(h('li.' + l.kind + chatClass(l), {}, chatParts(l)));
    else items.push(h('li.' + (l.kind || 'note'), {}, l.text));
  }
  const added = ui.log.length - logView.shown;
  logView.shown = ui.log.length;
  list.append(...items);
  if (follow) {
    toEnd(list);
    logView.unread = 0;
  } else {
    logView.unread += added;
  }
  showUnread();
}

function showUnread() {
  const b = $('#log-latest');
  if (!b) return;
  b.hidden = logView.unread === 0;
  b.textContent = t('log.latest', {n: logView.unread});
}

function renderResults(st) {
  const r = st.result;
  const seats = st.seats || [];
  const ranked = [...seats].sort(board.compareSeats);
  const finished = r ? r.finished : true;
  const status = r ? r.status : 'finished';
  const winners = finished ? seats.filter((s) => s.winner).map((s) => seatName(st, s.seat)) : [];
  const cols = board.resultColumns;
  const heading = {finished: 'result.finished', abandoned: 'result.abandoned', halted: 'result.halted', stopped: 'result.stopped', paused: 'result.paused'}[status] || 'result.finished';
  const box = h('section#results.panel', {'aria-labelledby': 'results-title', dataset: {status}},
    h('h2#results-title', {}, t(heading)),
    r && r.headline ? h('p.headline', {}, r.headline) : null,
    winners.length ? h('p.winners', {}, winners.length === 1 ? t('result.wins', {name: winners[0]}) : t('result.share', {names: winners.join(' & ')})) : null);
  if (seats.length) {
    box.append(h('table#final', {}, h('caption.sr-only', {}, t(finished ? 'result.scores' : 'result.scores.stopped')),
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('result.player')), h('th.num', {scope: 'col'}, finished ? t('result.score') : t('result.score.stopped')), cols.map((c) => h('th', {scope: 'col'}, c.title)))),
      h('tbody', {}, ranked.map((s) => h('tr', {class: ['seat-' + s.seat, s.me ? 'me' : '', s.winner && finished ? 'winner' : ''].filter(Boolean).join(' '), dataset: {seat: s.seat}},
        h('th', {scope: 'row'}, h('span.swatch', {}), seatName(st, s.seat), s.open ? openBadge(s) : null),
        h('td.num.final-score', {dataset: {seat: s.seat, value: s.score || 0}}, board.formatScore(s.score || 0)),
        cols.map((c) => h('td', {}, c.cell(s))))))));
  }
  if (!r) {
    box.append(h('p.audit.pending', {}, t('result.pending')));
    return box;
  }
  // The audit in plain words; what was checked, and the final digest, behind a disclosure.
  box.append(h('p#audit', {class: 'audit ' + (r.valid ? 'valid' : r.status === 'stopped' || r.status === 'paused' ? 'none' : 'invalid'), dataset: {valid: r.valid ? '1' : '0'}},
    r.valid ? t('result.checked') : r.audit));
  const details = [r.valid ? h('p', {}, r.audit) : null,
    r.digest && status !== 'paused' ? h('p.digest', {}, t('result.digest'), ' ', h('code', {}, r.digest)) : null].filter(Boolean);
  if (details.length) box.append(h('details#audit-details', {}, h('summary', {dataset: {key: 'audit-details'}}, t('result.details')), details));
  if (status === 'paused') {
    box.append(r.resume ? h('div#resume', {}, h('p', {}, t('result.paused.resume')), h('pre', {}, h('code#resume-command', {}, r.resume)))
      : h('p#resume.hint', {}, t('result.paused.noresume')));
  }
  const without = (st.without || []).map(iso).join(', ');
  if (st.rematch) box.append(h('p.hint', {}, without ? t('result.rematch.without.hint', {table: iso(st.rematch), names: without}) : t('result.rematch.hint', {table: iso(st.rematch)})));
  box.append(h('div.actions', {}, st.rematch ? rematchButton(without) : null, leaveButton(t('lobby.back')), st.quit ? quitButton() : null));
  return box;
}

// ---- panels and keyboard

function toggleDrawer(id, open) {
  const el = $('#' + id);
  const show = open === undefined ? el.hidden : open;
  for (const other of ['rules', 'help']) {
    if (other !== id && show) { $('#' + other).hidden = true; $(`[aria-controls="${other}"]`).setAttribute('aria-expanded', 'false'); }
  }
  el.hidden = !show;
  $(`[aria-controls="${id}"]`).setAttribute('aria-expanded', String(show));
  if (show) el.focus();
  else $(`[aria-controls="${id}"]`).focus();
}

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || isTyping()) return;
  const st = ui.state;
  if (e.key === '?') { toggleDrawer('help'); e.preventDefault(); return; }
  if (e.key === 'Escape') {
    if (closeTips()) return;
    if (!$('#help').hidden) { toggleDrawer('help', false); return; }
    if (!$('#rules').hidden) { toggleDrawer('rules', false); return; }
    board.onEscape();
    return;
  }
  // The page's own shortcuts are Shift and a letter; a letter alone is a choice's key (kit.js
  // keyFor: 1-9, 0, then a, b, c... in order).
  const k = e.key.toLowerCase();
  if (e.shiftKey && k === 'r' && words.rules) { toggleDrawer('rules'); e.preventDefault(); return; }
  if (e.shiftKey && k === 'l') { focusFirst('#log'); e.preventDefault(); return; }
  if (e.shiftKey && k === 'b') { focusFirst('#board'); e.preventDefault(); return; }
  if (e.shiftKey && k === 'd') {
    // The decision's first choice, or at the end the results' first button (Rematch, or Leave).
    const to = $('#decision button:not([disabled])') || $('#results .actions button') || $('#results button');
    if (to) to.focus();
    e.preventDefault(); return;
  }
  if (!st || !st.decision) return;
  if (board.onKey(e, st)) { e.preventDefault(); return; }
  if (k.length === 1 && !e.shiftKey) {
    const btn = [...document.querySelectorAll('#decision button.choice')].find((b) => $('kbd', b) && $('kbd', b).textContent === k);
    if (btn && !btn.disabled) { btn.click(); e.preventDefault(); }
  }
});

for (const id of ['rules', 'help']) {
  $(`[aria-controls="${id}"]`).addEventListener('click', () => toggleDrawer(id));
  $(`[data-close="${id}"]`).addEventListener('click', () => toggleDrawer(id, false));
}
$('#lang').addEventListener('change', (e) => { switchLang(e.target.value); });
// A phone's page: the turn's vibration and tone, on or off (the seat's loader reads
// body data-alerts), kept with the page's settings.
if (api.transport === 'in-process') {
  const alerts = h('button#alerts-button', {type: 'button', dataset: {key: 'alerts', t: 'tools.alerts'}, onclick: () => {
    const off = document.body.dataset.alerts !== 'off';
    document.body.dataset.alerts = off ? 'off' : 'on';
    store.set('alerts', off ? 'off' : 'on');
    alerts.setAttribute('aria-pressed', String(!off));
  }}, t('tools.alerts'));
  document.body.dataset.alerts = store.get('alerts') === 'off' ? 'off' : 'on';
  alerts.setAttribute('aria-pressed', String(document.body.dataset.alerts !== 'off'));
  $('#tools').prepend(alerts);
}
setInterval(updateClock, 1000);

(async () => {
  await loadWords(chooseLang());
  applyStatic();
  connect();
})();
