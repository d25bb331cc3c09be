// The table page: renders the State that the local server streams (GET /api/events), and sends
// the person's choices (POST /api/move, /api/lobby/...). No framework, no build step.

const $ = (sel, root = document) => root.querySelector(sel);

// h builds an element: h('button.choice', {dataset: {index: 3}, onclick}, 'text', child...).
// The spec is tag#id.class.class (id and classes optional).
function h(spec, props = {}, ...kids) {
  const [head, ...classes] = spec.split('.');
  const [tag, id] = head.split('#');
  const el = document.createElement(tag || 'div');
  if (id) el.id = id;
  if (classes.length) el.className = classes.filter(Boolean).join(' ');
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'class') el.className += (el.className ? ' ' : '') + v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

const money = (n) => '$' + Number(n).toLocaleString('en-US');

// What the page holds between updates.
const ui = {
  state: null,
  log: [],
  skew: 0,            // server clock minus ours, in ms
  picked: null,       // the card chosen from the hand, before its place
  decisionID: 0,      // the decision the focus was last moved for
  error: '',          // the last refused move or lobby request
  sending: false,
  connected: false,
  left: false,
  faceup: new Set(),
  form: null,        // the lobby's form to create a table, as typed
  peeksOpen: false,  // the list of cards to peek at is unfolded
  lastRoundOpen: true, // the summary of the last round is unfolded
};

function seatName(st, seat) {
  const s = (st.seats || [])[seat];
  if (!s) return 'seat ' + seat;
  return s.me ? s.name + ' (you)' : s.name;
}

function cardWords(c) {
  if (!c.card) return 'face-down card';
  return c.label;
}

function spotName(st, spot) {
  for (const b of st.game.bodies) {
    if (b.swiss === spot) return b.name + ' Swiss account';
    for (const c of b.contracts) if (c.id === spot) return c.name;
  }
  return spot;
}

// ---- talking to the server

async function post(path, body) {
  ui.sending = true;
  try {
    const r = await fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    const j = await r.json().catch(() => ({error: 'the server answered ' + r.status}));
    if (!r.ok) throw new Error(j.error || ('error ' + r.status));
    ui.error = '';
    return j;
  } catch (e) {
    ui.error = e.message;
    throw e;
  } finally {
    ui.sending = false;
    render();
  }
}

function move(m) {
  const st = ui.state;
  if (!st || !st.decision || ui.sending) return;
  post('/api/move', Object.assign({id: st.decision.id}, m)).then(() => { ui.picked = null; }).catch(() => {});
}

function connect() {
  const es = new EventSource('/api/events');
  es.addEventListener('state', (ev) => {
    const st = JSON.parse(ev.data);
    ui.connected = true;
    ui.log = ui.log.slice(0, st.log_start).concat(st.log);
    if (st.clock) ui.skew = st.clock.now_ms - Date.now();
    const before = ui.state && ui.state.decision ? ui.state.decision.id : 0;
    ui.state = st;
    if (!st.decision || st.decision.id !== before) { ui.picked = null; ui.faceup = new Set(); ui.peeksOpen = false; }
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
    $('#announce').textContent = d.prompt; // for screen readers: a decision is yours
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

function isTyping() {
  const a = document.activeElement;
  return a && (a.tagName === 'INPUT' && a.type === 'text' || a.tagName === 'SELECT' || a.tagName === 'TEXTAREA');
}

function renderTop(st) {
  const where = $('#where');
  const parts = [];
  if (st.table) parts.push(h('span.table-name', {}, 'Table ', h('strong', {}, st.table.name)));
  if (st.game) {
    parts.push(h('span', {}, `Round ${st.game.round} of 4`));
    parts.push(h('span', {}, phaseWords(st.game.phase)));
    if (st.game.phase !== 'over') parts.push(h('span.rule', {}, st.game.face_up_rule));
  }
  if (st.me) parts.push(h('span.me', {}, st.me.name + (st.me.seat >= 0 ? ` · seat ${st.me.seat}` : '')));
  where.replaceChildren(...parts);
  updateClock();
}

const phaseWords = (p) => ({deal: 'Dealing', 'face-up choice': 'Free-stud choice', corruption: 'Corruption', reveal: 'Reveal', awarding: 'Awarding', over: 'Game over'}[p] || p);

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
  el.replaceChildren(h('span', {}, who), ' ', h('span.time', {}, `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`), h('span.limit', {}, ` / ${Math.floor(limit / 60)}:${String(limit % 60).padStart(2, '0')}`));
  renderAlerts();
}

function renderAlerts() {
  const st = ui.state;
  const box = $('#alerts');
  const alerts = [];
  if (ui.noKey) alerts.push({level: 'error', text: 'This page needs its key: open the address that corruption printed (http://127.0.0.1:…/?key=…).'});
  else if (!ui.connected && !ui.left) alerts.push({level: 'warn', text: 'The connection to your node is lost; trying again…'});
  if (st) {
    for (const a of st.alerts || []) alerts.push(a);
    const c = st.clock;
    if (c) {
      const secs = (Date.now() + ui.skew - c.since_ms) / 1000;
      const limit = c.timeout_ms / 1000;
      if (c.due !== st.me.seat && secs > limit / 2) {
        alerts.push({level: 'warn', text: `${seatName(st, c.due)} has been silent for ${Math.floor(secs)} s. A player silent for ${Math.round(limit)} s is named as gone and the table stops.`});
      } else if (c.due === st.me.seat && st.decision && secs > limit) {
        alerts.push({level: 'error', text: 'Your time is up: the other players\' nodes now name you as gone and stop the table, so a move of yours can no longer count.'});
      } else if (c.due === st.me.seat && st.decision && limit - secs < Math.min(30, limit / 3)) {
        alerts.push({level: 'warn', text: `Your turn: ${Math.max(0, Math.floor(limit - secs))} s left before the table names you as gone.`});
      }
    }
  }
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
  const f = ui.form || (ui.form = {table: lb.defaults.table, players: lb.defaults.players, variant: lb.defaults.variant, lbb: lb.defaults.lbb});
  const form = h('form#create-form.panel', {onsubmit: (e) => {
    e.preventDefault();
    post('/api/lobby/create', {table: f.table, players: Number(f.players), variant: f.variant, lbb: f.lbb}).catch(() => {});
  }},
  h('h2', {}, 'Create a table'),
  h('label', {}, 'Name ', h('input#table-name', {name: 'table', type: 'text', value: f.table, maxlength: 64, required: true, dataset: {key: 'table-name'},
    oninput: (e) => { f.table = e.target.value; }})),
  h('label', {}, 'Players ', h('select#players', {name: 'players', dataset: {key: 'players'}, onchange: (e) => { f.players = Number(e.target.value); }},
    [3, 4, 5, 6, 7].filter((n) => n >= lb.bots + 1).map((n) => h('option', {value: n, selected: n === Number(f.players)}, n)))),
  h('label', {}, 'Variant ', h('select#variant', {name: 'variant', dataset: {key: 'variant'}, onchange: (e) => { f.variant = e.target.value; }},
    lb.variants.map((v) => h('option', {value: v, selected: v === f.variant}, v)))),
  h('label.check', {}, h('input#lbb', {name: 'lbb', type: 'checkbox', checked: f.lbb, dataset: {key: 'lbb'}, onchange: (e) => { f.lbb = e.target.checked; }}), ' Little black book (two peeks each)'),
  lb.bots ? h('p.hint', {}, `${lb.bots} local bot${lb.bots > 1 ? 's' : ''} will sit with you.`) : null,
  h('button#create', {type: 'submit', dataset: {key: 'create'}}, 'Create and sit'));

  const rows = lb.tables.map((t) => h('li.lobby-table', {dataset: {table: t.table}},
    h('div', {}, h('strong', {}, t.table), ` · ${t.players} players · ${t.variant}${t.lbb ? ' · little black book' : ''}`),
    h('div.seated', {}, `${t.seated.length} of ${t.players} seated: ${t.seated.join(', ')}`),
    h('button.join', {type: 'button', disabled: !t.room, dataset: {key: 'join:' + t.table, table: t.table},
      onclick: () => post('/api/lobby/join', {table: t.table, players: t.players, variant: t.variant, lbb: t.lbb}).catch(() => {})}, t.full ? 'Full' : (t.room ? 'Join' : 'No room for your bots'))));
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
    h('p', {}, `${t.players} players · ${t.variant}${t.lbb ? ' · little black book' : ''}`),
    h('p#seats-filled', {}, `${members.length} of ${t.players} seated: ${members.join(', ') || 'nobody yet'}.`),
    h('progress', {max: t.players, value: members.length}),
    h('p.hint', {}, `The game starts as soon as ${t.players} players are here. Others join from their lobby, or with: `,
      h('code', {}, `corruption play --table '${t.name}' --players ${t.players}${t.variant !== 'standard' ? ' --variant ' + t.variant : ''}${t.lbb ? ' --lbb' : ''}`)));
}

function renderSetup(st) {
  const c = st.clock;
  return h('section.panel.waiting', {},
    h('h2', {}, `Table ${st.table.name}: setting up`),
    h('p', {}, 'Seated: ' + st.seats.map((s) => s.name + (s.me ? ' (you)' : '')).join(', ') + '.'),
    h('p', {}, 'The players exchange keys, shuffle the contract deck together and draw the first player. No one can see the deck.'),
    h('p.hint', {}, `Entry ${st.table.entries}${c ? ' · waiting for ' + seatName(st, c.due) : ''}`));
}

// ---- the table

function renderTable(st) {
  const g = st.game;
  if (!g) return renderSetup(st);
  const board = h('section#board', {'aria-label': 'The table', tabindex: -1}, renderStepper(g), renderLastRound(st), h('div.bodies', {}, g.bodies.map((b) => renderBody(st, b))));
  const side = h('aside#side', {}, renderSeats(st), renderLog(st));
  const bottom = st.mode === 'over' ? renderResults(st) : renderDecision(st);
  return h('div.table-layout', {}, board, side, bottom);
}

function renderStepper(g) {
  if (g.phase !== 'awarding' && g.phase !== 'reveal') return null;
  const steps = ['Swiss bribes', 'Hit men', 'District attorneys', 'Reporters', 'Award'];
  const cur = g.phase === 'reveal' ? 0 : g.next.step;
  return h('ol.stepper', {'aria-label': 'Awarding steps'},
    h('li', {class: cur === 0 ? 'current' : 'done'}, 'Reveal'),
    steps.map((s, i) => h('li', {class: i + 1 === cur ? 'current' : (i + 1 < cur ? 'done' : '')}, `${i + 1}. ${s}`)),
    h('li.what', {}, g.next.text));
}

// actions says what a card or a spot can be clicked for in the decision due.
function actions(st) {
  const d = st.decision;
  const a = {peek: new Set(), target: new Set(), spots: new Set(), assign: new Set()};
  if (!d) return a;
  if (d.kind === 'place') {
    for (const i of d.peekable || []) a.peek.add(i);
    const c = ui.picked && d.cards.find((c) => c.card === ui.picked);
    if (c) for (const s of c.spots) a.spots.add(s);
  }
  if (d.kind === 'kill' || d.kind === 'remove') for (const i of d.targets) a.target.add(i);
  if (d.kind === 'assign') for (const c of d.assign) a.assign.add(c.id);
  return a;
}

function renderBody(st, b) {
  const act = actions(st);
  const spot = (id, title, sub, extra, value) => {
    const cards = st.game.cards.filter((c) => c.spot === id);
    const placeBtn = act.spots.has(id) ? h('button.place-here', {type: 'button', dataset: {key: 'here:' + id, spot: id}, onclick: () => move({kind: 'place', card: ui.picked, spot: id})}, 'Place here') : null;
    const assignBtn = act.assign.has(id) ? h('button.place-here', {type: 'button', dataset: {key: 'assign-here:' + id, contract: id}, onclick: () => move({kind: 'assign', contract: id})}, 'Assign here') : null;
    const cls = ['spot', extra, (placeBtn || assignBtn) ? 'open' : '', st.decision && st.decision.index && cards.some((c) => c.index === st.decision.index) ? 'focus' : ''].filter(Boolean).join('.');
    return h('div.' + cls, {dataset: value ? {spot: id, value} : {spot: id}},
      h('div.spot-head', {}, h('span.spot-title', {}, title), sub),
      h('div.cards', {}, cards.length ? cards.map((c) => renderCard(st, c, act)) : h('span.empty', {}, 'no card')),
      leading(st, id, extra === 'swiss'), placeBtn, assignBtn);
  };
  return h('section.body', {dataset: {body: b.id}, 'aria-label': b.name},
    h('h2', {}, b.name),
    spot(b.swiss, 'Swiss account', h('span.sub', {}, 'always face down · counts half'), 'swiss'),
    b.contracts.length ? b.contracts.map((c) => spot(c.id, c.name,
      h('span.sub', {}, h('span.value', {}, money(c.value)), c.deferred ? h('span.tag.deferred', {}, 'deferred') : null, c.cancelled ? h('span.tag.cancelled', {}, 'cancelled') : null), 'contract', c.value))
      : h('p.hint', {}, 'No contract yet.'));
}

// leading sums the bribes the person can see on a contract, per player (in the awarding phase,
// when every card is face up, this is the race as it stands).
function leading(st, id, swiss) {
  const g = st.game;
  if (swiss || (g.phase !== 'awarding' && g.phase !== 'over')) return null;
  const sums = {};
  for (const c of g.cards) {
    if (!c.card || c.removed) continue;
    const value = {1000: 1000, 2000: 2000, 4000: 4000, 6000: 6000, 8000: 8000, 10000: 10000}[c.card];
    if (!value) continue;
    if (c.spot === id) sums[c.seat] = (sums[c.seat] || 0) + value;
    else if (c.assigned === id) sums[c.seat] = (sums[c.seat] || 0) + value / 2;
  }
  const parts = Object.entries(sums).sort((a, b) => b[1] - a[1]).map(([s, v]) => `${seatName(st, Number(s))} ${money(v)}`);
  return parts.length ? h('div.bids', {}, 'Bids: ' + parts.join(', ')) : null;
}

function renderCard(st, c, act) {
  const d = st.decision;
  const owner = st.seats[c.seat];
  const hidden = !c.revealed;
  const classes = ['card', 'seat-' + c.seat, c.card ? '' : 'back', hidden && c.card ? 'secret' : '', c.dead ? 'dead' : '', c.removed ? 'removed' : '',
    d && d.index === c.index ? 'current' : ''].filter(Boolean).join('.');
  const marks = [];
  if (hidden && c.mine) marks.push('yours, face down');
  if (hidden && c.peeked && c.card) marks.push('you peeked');
  if (c.dead) marks.push('killed');
  if (c.removed) marks.push('removed');
  if (c.assigned) marks.push('→ ' + spotName(st, c.assigned));
  const title = `Card ${c.index}: ${owner ? owner.name : 'seat ' + c.seat}'s ${cardWords(c)}${marks.length ? ' (' + marks.join(', ') + ')' : ''}`;
  const body = [h('span.idx', {}, c.index), h('span.what', {}, c.card ? c.label : '?'), h('span.who', {}, owner ? owner.name : ''), marks.length ? h('span.mark', {}, marks.join(' · ')) : null];
  let verb = null;
  if (act.peek.has(c.index)) verb = 'peek';
  if (act.target.has(c.index)) verb = d.kind;
  if (verb) {
    return h('button.' + classes + '.target', {type: 'button', title: `${verb} ${title}`, 'aria-label': `${verb}: ${title}`, dataset: {key: `${verb}:${c.index}`, index: c.index, act: verb},
      onclick: () => move({kind: verb, index: c.index})}, body);
  }
  return h('div.' + classes, {title, role: 'img', 'aria-label': title}, body);
}

function renderSeats(st) {
  const g = st.game;
  const lbb = st.table && st.table.lbb;
  return h('section.panel.seats', {'aria-label': 'Players'},
    h('table#scores', {},
      h('colgroup', {}, h('col.c-name'), h('col.c-score'), h('col.c-won'), h('col.c-cards'), h('col.c-chars'), lbb ? h('col.c-peeks') : null),
      h('thead', {}, h('tr', {}, h('th', {}, 'Player'), h('th.num', {}, 'Score'), h('th.num', {title: 'contracts won'}, 'Won'),
        h('th.num', {title: 'cards placed this round'}, 'Cards'), h('th', {title: 'district attorney, reporters, hit man left'}, 'DA·R·H'), lbb ? h('th.num', {title: 'little black book peeks left'}, 'Pk') : null)),
      h('tbody', {}, st.seats.map((s) => h('tr', {class: ['seat-' + s.seat, s.me ? 'me' : '', s.due ? 'due' : '', s.winner ? 'winner' : ''].filter(Boolean).join(' '), dataset: {seat: s.seat},
        title: (s.due ? 'To play. ' : '') + (s.seat === g.first ? 'First player this round. ' : '') + (s.contracts.length ? 'Won: ' + s.contracts.join(', ') : 'No contract won yet')},
        h('td.name', {}, h('span.swatch', {}), s.name, s.me ? h('span.badge', {}, 'you') : null, s.seat === g.first ? h('span.badge', {title: 'first player this round'}, '1st') : null),
        h('td.num.score', {dataset: {value: s.score}}, money(s.score)),
        h('td.num', {}, s.contracts.length),
        h('td.num', {}, `${s.placed}/6`),
        h('td', {}, `${s.da}·${s.reporters}·${s.hitmen}`),
        lbb ? h('td.num', {}, s.peeks) : null)))));
}

// renderLastRound sums up the previous round's awarding while the next one is played.
function renderLastRound(st) {
  const g = st.game;
  if (g.round < 2 || g.phase === 'awarding' || g.phase === 'reveal' || g.phase === 'over') return null;
  const lines = ui.log.filter((l) => l.round === g.round - 1 && ['awarded', 'deferred', 'cancelled'].includes(l.kind));
  if (!lines.length) return null;
  return h('details.last-round', {open: ui.lastRoundOpen, ontoggle: (e) => { ui.lastRoundOpen = e.target.open; }}, h('summary', {dataset: {key: 'last-round'}}, `Round ${g.round - 1}: how the contracts went`),
    h('ul', {}, lines.map((l) => h('li.' + l.kind, {}, l.text))));
}

function renderLog(st) {
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

function renderDecision(st) {
  const d = st.decision;
  const g = st.game;
  const hand = h('div.hand', {'aria-label': 'Your hand'}, h('span.label', {}, 'Your hand'),
    g.hand.length ? g.hand.map((c) => h('span.card.mini.seat-' + st.me.seat, {}, c.label)) : h('span.hint', {}, 'empty'));
  if (!d) {
    return h('section#decision.panel.idle', {dataset: {kind: 'none', id: 0}},
      h('p.prompt', {}, g.next.text + '.'), hand);
  }
  const box = h('section#decision.panel.mine', {dataset: {kind: d.kind, id: d.id, placed: d.placed, busy: ui.sending ? '1' : '0'}, 'aria-label': 'Your decision'}, h('p.prompt', {}, d.prompt));
  const n = {i: 0};
  const key = () => ++n.i <= 9 ? `${n.i}` : '';
  const choice = (label, props, onclick) => {
    const k = key();
    return h('button.choice', Object.assign({type: 'button', onclick, disabled: ui.sending}, props), k ? h('kbd', {}, k) : null, label);
  };
  if (d.kind === 'place') {
    if (!ui.picked) {
      box.append(h('div.choices.hand-choices', {role: 'group', 'aria-label': 'Choose a card from your hand'},
        d.cards.map((c) => choice(c.label, {class: 'hand-card' + (c.spots.length ? '' : ' unplayable'), disabled: ui.sending || !c.spots.length, dataset: {key: 'card:' + c.card, card: c.card}, 'aria-pressed': 'false'},
          () => { ui.picked = c.card; render(); focusFirst('#decision .spot-choice'); }))));
      if (d.can_peek && d.peekable.length) {
        const peeks = d.peekable.map((i) => {
          const c = g.cards[i - 1];
          return h('button.choice.peek-choice', {type: 'button', disabled: ui.sending, dataset: {key: 'peekc:' + i, index: i}, onclick: () => move({kind: 'peek', index: i})},
            `card ${i} (${st.seats[c.seat].name}, ${spotName(st, c.spot)})`);
        });
        // Many cards to peek at: folded, so that the hand stays in sight (or click a card on the board).
        const few = peeks.length <= 4;
        box.append(h('details.peeks', {open: few || ui.peeksOpen, ontoggle: (e) => { if (!few) ui.peeksOpen = e.target.open; }},
          h('summary', {dataset: {key: 'peeks'}}, `Or first peek at one of ${peeks.length} face-down cards (or click a card on the table)`),
          h('div.choices', {role: 'group', 'aria-label': 'Peek first'}, peeks)));
      }
    } else {
      const c = d.cards.find((c) => c.card === ui.picked);
      box.append(h('p.picked', {}, 'Card: ', h('strong', {}, c.label), ' ',
        h('button.back', {type: 'button', dataset: {key: 'unpick'}, onclick: () => { ui.picked = null; render(); focusFirst('#decision .hand-card'); }}, 'Choose another card (Esc)')));
      const groups = g.bodies.map((b) => {
        const spots = [b.swiss, ...b.contracts.map((k) => k.id)].filter((s) => c.spots.includes(s));
        if (!spots.length) return null;
        return h('div.choices.spot-group', {role: 'group', 'aria-label': b.name}, h('span.label', {}, b.name),
          spots.map((s) => choice(s === b.swiss ? 'Swiss account' : spotName(st, s), {class: 'spot-choice', dataset: {key: 'spot:' + s, spot: s}},
            () => move({kind: 'place', card: c.card, spot: s}))));
      });
      box.append(h('div.spot-groups', {}, groups));
    }
  } else if (d.kind === 'assign') {
    box.append(h('div.choices', {role: 'group'}, d.assign.map((c) => choice(`${c.name} (${money(c.value)})`, {dataset: {key: 'assign:' + c.id, contract: c.id}}, () => move({kind: 'assign', contract: c.id})))));
  } else if (d.kind === 'kill' || d.kind === 'remove') {
    box.append(h('div.choices', {role: 'group'},
      d.targets.map((i) => {
        const c = g.cards[i - 1];
        return choice(`card ${i}: ${st.seats[c.seat].name}'s ${cardWords(c)}`, {dataset: {key: d.kind + 'c:' + i, index: i}}, () => move({kind: d.kind, index: i}));
      }),
      d.can_pass ? choice('Pass (remove nothing)', {class: 'pass', dataset: {key: 'pass', pass: '1'}}, () => move({kind: 'pass'})) : null));
  } else if (d.kind === 'faceup') {
    const boxes = [1, 2, 3, 4, 5, 6].map((p) => h('label.check', {}, h('input', {type: 'checkbox', checked: ui.faceup.has(p), dataset: {key: 'pos:' + p, pos: p},
      onchange: (e) => { if (e.target.checked) ui.faceup.add(p); else ui.faceup.delete(p); }}), ` card ${p}`));
    box.append(h('div.choices', {role: 'group', 'aria-label': 'Face-up positions'}, boxes,
      h('button#faceup-ok.choice', {type: 'button', disabled: ui.sending, dataset: {key: 'faceup-ok'}, onclick: () => move({kind: 'faceup', positions: [...ui.faceup].sort()})}, 'Confirm')));
  }
  box.append(hand);
  return box;
}

function focusFirst(sel) {
  const el = $(sel);
  if (el) el.focus();
}

function renderResults(st) {
  const r = st.result;
  const ranked = [...st.seats].sort((a, b) => b.score - a.score || b.contracts.length - a.contracts.length);
  const winners = st.seats.filter((s) => s.winner).map((s) => s.name + (s.me ? ' (you)' : ''));
  const box = h('section#results.panel', {'aria-label': 'Results'},
    h('h2', {}, 'Final results'),
    winners.length ? h('p.winners', {}, winners.length === 1 ? `${winners[0]} wins.` : `${winners.join(' and ')} share the win.`) : null,
    h('table#final', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Player'), h('th.num', {}, 'Score'), h('th', {}, 'Contracts won'))),
      h('tbody', {}, ranked.map((s) => h('tr', {class: ['seat-' + s.seat, s.me ? 'me' : '', s.winner ? 'winner' : ''].filter(Boolean).join(' '), dataset: {seat: s.seat}},
        h('td', {}, h('span.swatch', {}), s.name, s.me ? ' (you)' : ''),
        h('td.num.final-score', {dataset: {seat: s.seat, value: s.score}}, money(s.score)),
        h('td', {}, s.contracts.join(', ') || '—'))))));
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
    if (ui.picked) { ui.picked = null; render(); focusFirst('#decision .hand-card'); }
    return;
  }
  const k = e.key.toLowerCase();
  if (k === 'l') { focusFirst('#log'); return; }
  if (k === 'b') { focusFirst('#board'); return; }
  if (k === 'd') { focusFirst('#decision button:not([disabled]), #results button'); return; }
  if (!st || !st.decision) return;
  if (k === 'p' && st.decision.can_pass) { move({kind: 'pass'}); return; }
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

$('#help-button').addEventListener('click', toggleHelp);
setInterval(updateClock, 1000);
connect();
