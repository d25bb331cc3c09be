// Corruption's board: the bodies with their contracts and Swiss accounts, the cards placed,
// the players' panel and the decision panel, for the shell's page (../app.js says what a board
// exports). It draws the State's game, seats and decision, which the server builds from the
// person's view only, with the card art of cards.svg and the words of lang/LANG.json.
//
// The awarding at human speed: when a round ends, its awarding is played again on the round's
// board, fully revealed, one step at a time (each step's card outlined and what happened said),
// at the pace the person chose, with pause, next and skip. The round is drawn from the log's
// events (each line's data), so that it can be opened again later.

import {h, ui, render, seatName, move, focusFirst, t, has, keyFor, art, kbdText, store, tip, why} from '../../kit.js';

export const title = 'Corruption';
export const setupText = 'The players exchange keys, shuffle the contract deck together and draw the first player. No one can see the deck.';
export const setup = () => t('setup');

const sprite = new URL('cards.svg', import.meta.url).pathname;
const paces = {slow: 3200, normal: 1700, fast: 700};

// money is an amount as the page's language writes it ($4,000 / $4.000 / 4 000 $).
export function money(n) {
  const s = String(Math.abs(Math.round(n))).replace(/\B(?=(\d{3})+(?!\d))/g, has('money.sep') ? t('money.sep') : ',');
  return (n < 0 ? '-' : '') + (has('money') ? t('money', {n: s}) : '$' + s);
}
export const formatScore = money;

function savedPace() {
  const p = store.get('corruption.pace');
  return p in paces || p === 'off' ? p : 'normal';
}

// What the board holds between updates.
const my = {
  picked: null,        // the card chosen from the hand, before its place
  faceup: new Set(),   // the free-stud positions ticked
  peeksOpen: false,    // the list of cards to peek at is unfolded
  lastRoundOpen: false, // the summary of the last round is unfolded
  replay: null,        // {round, step, playing}: an awarding played again
  timer: 0,
  pace: savedPace(),
  logLen: 0,           // the log's length at the last state
  actedAt: {},         // round -> the log's length when the person last decided in its awarding
};

export function helpItems() {
  return [h('li', {}, kbdText(t('help.place'))), h('li', {}, kbdText(t('help.replay')))];
}

// ---- names

const cardKind = (card) => (/^\d+$/.test(card) ? 'bribe' : card);
const label = (card) => (!card ? t('label.unknown') : /^\d+$/.test(card) ? money(Number(card)) : t('label.' + card));
const shortLabel = (card) => (!card ? '?' : /^\d+$/.test(card) ? money(Number(card)) : t('short.' + card));
const cardWords = (card) => (!card ? t('words.unknown') : /^\d+$/.test(card) ? t('words.bribe', {money: money(Number(card))}) : t('words.' + card));
const contractName = (id) => (has('contract.' + id) ? t('contract.' + id) : id);
const bodyName = (id) => t('body.' + id);

function cardArt(card, cls = 'art') {
  if (!card) return art(sprite + '#back', cls + ' back-art');
  if (/^\d+$/.test(card)) return art(sprite + '#bribe-' + card, cls);
  return art(sprite + '#' + card, cls);
}

function spotName(st, spot, g = st.game) {
  if (spot.startsWith('swiss:')) return t('swiss.name', {body: bodyName(spot.slice(6))});
  for (const b of g.bodies) for (const c of b.contracts) if (c.id === spot) return c.name;
  return contractName(spot);
}

// ---- state

// onState forgets the choices of a decision that is gone, notes the person's awarding
// decisions, and starts the replay of an awarding that just ended.
export function onState(prev, st) {
  const before = prev && prev.decision ? prev.decision.id : 0;
  if (!st.decision || st.decision.id !== before) { my.picked = null; my.faceup = new Set(); my.peeksOpen = false; }
  const g = st.game;
  if (st.decision && g && ['assign', 'kill', 'remove'].includes(st.decision.kind)) my.actedAt[g.round] = ui.log.length;
  if (ui.log.length < my.logLen || ui.fresh) { my.logLen = ui.log.length; return; }
  for (let i = my.logLen; i < ui.log.length; i++) {
    const l = ui.log[i];
    if ((l.kind === 'round' || l.kind === 'over') && my.pace !== 'off') startReplay(l.round, true);
  }
  my.logLen = ui.log.length;
}

function send(m) {
  move(m).then((ok) => { if (ok) my.picked = null; });
}

// ---- the lobby

export const settingsOf = (tb) => ({variant: tb.variant, lbb: tb.lbb});

export function settingsFields(f, lb) {
  return [
    h('label', {title: t('tip.variant')}, t('set.variant'), ' ', h('select#variant', {name: 'variant', dataset: {key: 'variant'}, onchange: (e) => {
      f.variant = e.target.value;
      const tip = e.target.form && e.target.form.querySelector('.variant-tip');
      if (tip) tip.textContent = t('tip.variant.' + f.variant);
    }},
      lb.variants.map((v) => h('option', {value: v, selected: v === f.variant, title: t('tip.variant.' + v)}, t('variant.' + v))))),
    h('p.hint.variant-tip', {}, t('tip.variant.' + f.variant)),
    h('label.check', {title: t('tip.lbb')}, h('input#lbb', {name: 'lbb', type: 'checkbox', checked: f.lbb, dataset: {key: 'lbb'}, onchange: (e) => { f.lbb = e.target.checked; }}), ' ', t('set.lbb')),
  ];
}

export const describeSettings = (tb) => ` · ${t('variant.' + tb.variant)}${tb.lbb ? ' · ' + t('lbb.short') : ''}`;
export const joinFlags = (tb) => `${tb.variant !== 'standard' ? ' --variant ' + tb.variant : ''}${tb.lbb ? ' --lbb' : ''}`;

// ---- the header

export function header(st) {
  const g = st.game;
  return [
    h('span.round', {}, t('round.of', {n: g.round})),
    h('span.phase', {title: t('tip.phase.' + g.phase)}, t('phase.' + g.phase)),
  ];
}

// ---- the board

// renderBoard draws the table, or an awarding played again. While a decision is the person's,
// the table stays in sight (the new round's contracts, the places open to a card): the
// replay goes on in a bar above it, which opens it on request.
export function renderBoard(st) {
  if (my.replay) {
    const r = history()[my.replay.round];
    if (r && (!st.decision || my.replay.shown)) return renderReplay(st, r);
    if (!r) my.replay = null;
  }
  const g = st.game;
  return h('section#board', {'aria-label': t('board.label'), tabindex: -1},
    h('div.board-bar', {}, h('span.rule', {title: t('tip.faceup')}, g.phase !== 'over' ? g.face_up_rule : t('phase.over')), renderStepper(g)),
    my.replay ? replayBar(st) : renderLastRound(st),
    h('div.bodies', {}, g.bodies.map((b) => renderBody(st, g, b, actions(st)))));
}

// replayBar says, above the table, that the last round's awarding is being played again, with
// a button to watch it (over the table) or to stop it.
function replayBar(st) {
  const rp = my.replay;
  const r = history()[rp.round];
  const n = r ? r.steps.length : 0;
  return h('div.replay-aside', {role: 'status'}, t('replay.aside', {n: rp.round, i: Math.min(rp.step, n), of: n}), ' ',
    h('button#replay-watch', {type: 'button', dataset: {key: 'replay-watch'}, onclick: () => { rp.shown = true; render(); }}, t('replay.watch')), ' ',
    h('button#replay-skip', {type: 'button', dataset: {key: 'replay-skip'}, onclick: stopReplay}, t('replay.skip')));
}

const stepKeys = ['step.1', 'step.2', 'step.3', 'step.4', 'step.5'];

function renderStepper(g, cur) {
  if (cur === undefined) {
    if (g.phase !== 'awarding' && g.phase !== 'reveal') return null;
    cur = g.phase === 'reveal' ? 0 : g.next.step;
  }
  return h('ol.stepper', {'aria-label': t('steps.label')},
    h('li', {class: cur === 0 ? 'current' : 'done', title: t('tip.step.0')}, t('step.reveal')),
    stepKeys.map((k, i) => h('li', {class: i + 1 === cur ? 'current' : (i + 1 < cur ? 'done' : ''), title: t('tip.' + k), 'aria-current': i + 1 === cur ? 'step' : null}, t(k))));
}

// actions says what a card or a spot can be clicked for in the decision due.
function actions(st) {
  const d = st.decision;
  const a = {peek: new Set(), target: new Set(), spots: new Set(), assign: new Set()};
  if (!d) return a;
  if (d.kind === 'place') {
    for (const i of d.peekable || []) a.peek.add(i);
    const c = my.picked && d.cards.find((c) => c.card === my.picked);
    if (c) for (const s of c.spots) a.spots.add(s);
  }
  if (d.kind === 'kill' || d.kind === 'remove') for (const i of d.targets) a.target.add(i);
  if (d.kind === 'assign') for (const c of d.assign) a.assign.add(c.id);
  return a;
}

// renderBody draws one government body of game g (the live game, or a replayed round's).
function renderBody(st, g, b, act, focus) {
  const spot = (id, kind, head, value) => {
    const cards = g.cards.filter((c) => c.spot === id);
    const placeBtn = act.spots.has(id) ? h('button.place-here', {type: 'button', dataset: {key: 'here:' + id, spot: id},
      'aria-label': t('place.here.label', {place: spotName(st, id, g)}), onclick: () => send({kind: 'place', card: my.picked, spot: id})}, t('place.here')) : null;
    const assignBtn = act.assign.has(id) ? h('button.place-here', {type: 'button', dataset: {key: 'assign-here:' + id, contract: id},
      'aria-label': t('assign.here.label', {place: spotName(st, id, g)}), onclick: () => send({kind: 'assign', contract: id})}, t('assign.here')) : null;
    const asked = st.decision && st.decision.index && g === st.game && cards.some((c) => c.index === st.decision.index);
    const cls = ['spot', kind, (placeBtn || assignBtn) ? 'open' : '', asked || (focus && focus.spot === id) ? 'focus' : ''].filter(Boolean).join('.');
    return h('div.' + cls, {dataset: value ? {spot: id, value} : {spot: id}},
      h('div.spot-head', {}, head, placeBtn, assignBtn),
      h('div.cards', {}, cards.length ? cards.map((c) => renderCard(st, g, c, act, focus)) : h('span.empty', {}, t('empty'))),
      leading(st, g, id, kind === 'swiss'));
  };
  const swissHead = [art(sprite + '#swiss', 'icon'), h('span.spot-title', {title: t('tip.swiss')}, t('swiss.title')), h('span.sub', {}, t('swiss.sub'))];
  return h('section.body', {dataset: {body: b.id}, 'aria-label': b.name},
    h('h2', {}, art(sprite + '#body-' + b.id, 'icon'), b.name),
    spot(b.swiss, 'swiss', swissHead),
    b.contracts.length ? b.contracts.map((c) => spot(c.id, 'contract', [
      art(sprite + '#contract', 'icon'),
      h('span.spot-title', {title: t('tip.contract')}, c.name),
      h('span.value', {}, tip(money(c.value), `${c.name} ${money(c.value)}`, t('tip.value', {name: c.name, value: money(c.value)}), 'value:' + c.id)),
      c.deferred ? h('span.tag.deferred', {title: t('tip.deferred')}, t('tag.deferred')) : null,
      c.cancelled ? h('span.tag.cancelled', {title: t('tip.cancelled')}, t('tag.cancelled')) : null,
      c.won !== undefined ? h('span.tag.won', {}, t('tag.won', {name: seatName(st, c.won), amount: money(c.amount)})) : null,
      c.tied ? h('span.tag.deferred', {}, t('tag.tied')) : null,
    ], c.value)) : h('p.hint', {}, t('nocontract')));
}

// bribeValue is what a bribe counts for on a contract (a Swiss bribe, half).
const bribeValue = (card) => (/^\d+$/.test(card || '') ? Number(card) : 0);

// leading sums the bribes the person can see on a contract, per player (in the awarding phase,
// when every card is face up, this is the race as it stands).
function leading(st, g, id, swiss) {
  if (swiss || (g.phase !== 'awarding' && g.phase !== 'over')) return null;
  const sums = {};
  for (const c of g.cards) {
    if (!c.card || c.removed) continue;
    const v = bribeValue(c.card);
    if (!v) continue;
    if (c.spot === id) sums[c.seat] = (sums[c.seat] || 0) + v;
    else if (c.assigned === id) sums[c.seat] = (sums[c.seat] || 0) + v / 2;
  }
  const parts = Object.entries(sums).sort((a, b) => b[1] - a[1]).map(([s, v]) => `${seatName(st, Number(s))} ${money(v)}`);
  return parts.length ? h('div.bids', {}, t('bids', {list: parts.join(', ')})) : null;
}

function cardTitle(st, c, g) {
  const owner = st.seats[c.seat];
  const marks = [];
  if (!c.revealed && c.mine && c.card) marks.push(t('mark.yours'));
  if (!c.revealed && c.peeked && c.card && !c.mine) marks.push(t('mark.peeked'));
  else if (!c.revealed && c.known) marks.push(t('mark.known')); // its seat is open (protocol/depart.go)
  if (c.dead) marks.push(t('mark.killed'));
  if (c.removed) marks.push(t('mark.removed'));
  if (c.assigned) marks.push(t('mark.assigned', {place: spotName(st, c.assigned, g)}));
  const tip = c.card ? t('tip.' + cardKind(c.card)) : t('tip.back');
  const title = c.seat === st.me.seat ? t('card.title.you', {index: c.index, what: cardWords(c.card)})
    : t('card.title', {index: c.index, owner: owner ? owner.name : t('seat', {n: c.seat}), what: cardWords(c.card)});
  return {marks, text: title + (marks.length ? ' (' + marks.join(', ') + ')' : ''), tip};
}

// ownerWords is a card's owner as the shell names it ("⁨ann⁩ (seat 2)"), its seat in a box of
// its own: on a narrow card the label wraps between the name and the seat, not inside the seat.
function ownerWords(name) {
  const end = name.lastIndexOf('\u2069') + 1;
  if (end <= 0 || !name.slice(end).trim()) return name;
  return [name.slice(0, end), ' ', h('span.seat-of', {}, name.slice(end).trim())];
}

function renderCard(st, g, c, act, focus) {
  const d = g === st.game ? st.decision : null;
  const owner = st.seats[c.seat];
  const hidden = !c.revealed;
  const current = (d && d.index === c.index) || (focus && (focus.index === c.index));
  const hit = focus && focus.target === c.index;
  const classes = ['card', 'seat-' + c.seat, c.card ? 'kind-' + cardKind(c.card) : 'back', hidden && c.card ? 'secret' : '', c.dead ? 'dead' : '', c.removed ? 'removed' : '',
    current ? 'current' : '', hit ? 'hit' : ''].filter(Boolean).join('.');
  const {marks, text, tip} = cardTitle(st, c, g);
  const body = [h('span.idx', {}, c.index), cardArt(c.card), h('span.what', {}, shortLabel(c.card)), h('span.who', {}, owner ? ownerWords(owner.name) : ''),
    marks.length ? h('span.mark', {}, marks.join(' · ')) : null];
  let verb = null;
  if (act.peek.has(c.index)) verb = 'peek';
  if (act.target.has(c.index)) verb = d.kind;
  if (verb) {
    return h('button.' + classes + '.target', {type: 'button', title: `${t('verb.' + verb)}: ${text}`, dataset: {key: `${verb}:${c.index}`, index: c.index, act: verb},
      onclick: () => send({kind: verb, index: c.index})}, h('span.sr-only', {}, t('verb.' + verb) + ': '), body);
  }
  return h('div.' + classes, {title: text + '. ' + tip, role: 'img', 'aria-label': text, dataset: {index: c.index}}, body);
}

// ---- the awarding, again: the rounds drawn from the log

// history draws every round of the log: the contracts on the table during its awarding, its
// cards as revealed, and its awarding steps in order.
function history() {
  const rounds = {};
  const table = new Map();
  const round = (n) => rounds[n] || (rounds[n] = {n, contracts: null, cards: new Map(), steps: [], done: false, lines: []});
  const freeze = (r) => { if (!r.contracts) r.contracts = [...table.values()].map((c) => Object.assign({}, c)); };
  ui.log.forEach((l, i) => {
    const d = l.data;
    if (!d || !l.round) return;
    const r = round(l.round);
    switch (l.kind) {
      case 'dealt':
        table.set(d.contract, {id: d.contract, body: d.body, value: d.value, deferred: false});
        break;
      case 'placed':
        r.cards.set(d.index, {index: d.index, seat: d.seat, spot: d.spot, card: d.card || '', revealed: !!d.card});
        break;
      case 'revealed': {
        const c = r.cards.get(d.index) || {index: d.index, seat: d.seat, spot: d.spot};
        c.card = d.card;
        c.revealed = true;
        r.cards.set(d.index, c);
        break;
      }
      case 'assigned': case 'killed': case 'cancelled': case 'removed': case 'passed': case 'awarded': case 'deferred':
        freeze(r);
        r.steps.push({kind: l.kind, d, text: l.text, at: i});
        if (l.kind === 'awarded') table.delete(d.contract);
        break;
      case 'round': case 'over':
        freeze(r);
        r.done = true;
        for (const c of table.values()) c.deferred = true;
        break;
    }
  });
  return rounds;
}

const stepOf = {assigned: 1, killed: 2, cancelled: 3, removed: 4, passed: 4, awarded: 5, deferred: 5};

// frame is round r's board after its first k awarding steps, shaped as the State's game.
function frame(st, r, k) {
  const cards = new Map([...r.cards.values()].map((c) => [c.index, Object.assign({}, c, {revealed: true, mine: c.seat === st.me.seat})]));
  const contracts = new Map(r.contracts.map((c) => [c.id, Object.assign({}, c, {deferred: c.deferred, cancelled: false})]));
  for (const s of r.steps.slice(0, k)) {
    const d = s.d;
    const ct = contracts.get(d.contract);
    if (s.kind === 'assigned' && cards.get(d.index)) cards.get(d.index).assigned = d.contract;
    if (s.kind === 'killed' && cards.get(d.target)) cards.get(d.target).dead = true;
    if (s.kind === 'removed' && cards.get(d.target)) cards.get(d.target).removed = true;
    if (s.kind === 'cancelled' && ct) ct.cancelled = true;
    if (s.kind === 'awarded' && ct) Object.assign(ct, {won: d.seat, amount: d.amount});
    if (s.kind === 'deferred' && ct && d.amount) ct.tied = true;
  }
  const bodies = ['city', 'county', 'capitol'].map((id) => ({id, name: bodyName(id), swiss: 'swiss:' + id,
    contracts: [...contracts.values()].filter((c) => c.body === id).map((c) => Object.assign(c, {name: contractName(c.id)}))}));
  const last = r.steps[k - 1];
  const focus = last ? {index: last.d.index, target: last.d.target, spot: ['cancelled', 'awarded', 'deferred'].includes(last.kind) ? last.d.contract : null} : null;
  return {game: {round: r.n, phase: 'awarding', bodies, cards: [...cards.values()].sort((a, b) => a.index - b.index)}, focus, last};
}

function startReplay(round, auto) {
  const r = history()[round];
  if (!r || !r.done || !r.steps.length) return;
  let step = 0;
  if (auto) {
    const acted = my.actedAt[round];
    if (acted !== undefined) step = r.steps.findIndex((s) => s.at >= acted);
    if (step < 0) return; // the person saw every step as it happened
  }
  my.replay = {round, step, playing: auto ? my.pace !== 'off' : false};
  schedule();
}

function schedule() {
  clearTimeout(my.timer);
  const rp = my.replay;
  if (!rp || !rp.playing) return;
  const r = history()[rp.round];
  my.timer = setTimeout(() => {
    if (!my.replay || !r) return;
    if (my.replay.step < r.steps.length) {
      my.replay.step++;
    } else {
      my.replay = null; // the last step stayed in sight for one more beat: back to the table
    }
    render();
    schedule();
  }, paces[my.pace] || paces.normal);
}

function stopReplay() {
  clearTimeout(my.timer);
  my.replay = null;
  render();
}

function renderReplay(st, r) {
  const rp = my.replay;
  const k = Math.min(rp.step, r.steps.length);
  const {game, focus, last} = frame(st, r, k);
  const cur = last ? stepOf[last.kind] : 0;
  const say = last ? last.text : t('replay.start');
  const controls = h('div.replay-controls', {role: 'group', 'aria-label': t('replay.controls')},
    h('button#replay-play', {type: 'button', dataset: {key: 'replay-play'}, onclick: () => {
      if (k >= r.steps.length) rp.step = 0;
      rp.playing = !rp.playing; render(); schedule();
    }}, rp.playing ? t('replay.pause') : t('replay.play')),
    why(h('button#replay-next', {type: 'button', dataset: {key: 'replay-next'}, onclick: () => {
      rp.playing = false; rp.step = Math.min(r.steps.length, rp.step + 1); render(); schedule();
    }}, t('replay.next')), k >= r.steps.length ? t('replay.next.end') : ''),
    h('button#replay-skip', {type: 'button', dataset: {key: 'replay-skip'}, onclick: stopReplay}, t('replay.skip')),
    st.decision ? h('button#replay-back', {type: 'button', dataset: {key: 'replay-back'}, onclick: () => { rp.shown = false; render(); }}, t('replay.back')) : null,
    h('label.pace', {}, t('replay.pace'), ' ', h('select#pace', {dataset: {key: 'pace'}, onchange: (e) => {
      my.pace = e.target.value; store.set('corruption.pace', my.pace);
      if (my.pace === 'off') rp.playing = false;
      schedule();
    }}, ['slow', 'normal', 'fast', 'off'].map((p) => h('option', {value: p, selected: p === my.pace}, t('pace.' + p))))));
  return h('section#board.replaying', {'aria-label': t('replay.label', {n: r.n}), tabindex: -1, dataset: {round: r.n, step: k, steps: r.steps.length}},
    h('div.board-bar.replay-bar', {},
      h('strong', {}, t('replay.title', {n: r.n})),
      h('span.replay-count', {}, t('replay.step', {i: k, n: r.steps.length})),
      renderStepper(null, cur),
      controls,
      h('p#replay-say.replay-say', {'aria-live': 'polite'}, say)),
    h('div.bodies', {}, game.bodies.map((b) => renderBody(st, game, b, actions({}), focus))));
}

// renderLastRound sums up the previous round's awarding while the next one is played, with a
// button to play it again.
function renderLastRound(st) {
  const g = st.game;
  const n = g.phase === 'over' ? g.round : g.round - 1;
  if (n < 1 || g.phase === 'awarding' || g.phase === 'reveal') return null;
  const lines = ui.log.filter((l) => l.round === n && ['awarded', 'deferred', 'cancelled'].includes(l.kind));
  if (!lines.length) return null;
  const r = history()[n];
  return h('details.last-round', {open: my.lastRoundOpen, ontoggle: (e) => { my.lastRoundOpen = e.target.open; }},
    h('summary', {dataset: {key: 'last-round'}}, t('lastround.title', {n})),
    h('ul', {}, lines.map((l) => h('li.' + l.kind, {}, l.text))),
    r && r.steps.length ? h('button#replay-open', {type: 'button', dataset: {key: 'replay-open'}, onclick: () => { startReplay(n, false); my.replay.playing = my.pace !== 'off'; render(); schedule(); }}, t('replay.open', {n})) : null);
}

// ---- the players

export function renderSeats(st) {
  const g = st.game;
  const lbb = st.table && st.table.lbb;
  const chars = (s) => h('span.chars', {title: t('tip.chars')},
    [['da', s.da], ['reporter', s.reporters], ['hitman', s.hitmen]].map(([k, n]) => h('span.char' + (n ? '' : '.spent'), {}, art(sprite + '#' + k, 'mini-art'), h('span.sr-only', {}, t('words.' + k) + ' '), n)));
  return h('section.panel.seats', {'aria-labelledby': 'players-title'},
    h('h2#players-title.sr-only', {}, t('players.label')),
    h('table#scores', {},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('col.player')), h('th.num', {scope: 'col', title: t('tip.score')}, t('col.score')))),
      h('tbody', {}, st.seats.map((s) => h('tr', {class: ['seat-' + s.seat, s.me ? 'me' : '', s.due ? 'due' : '', s.winner ? 'winner' : ''].filter(Boolean).join(' '), dataset: {seat: s.seat}},
        h('th', {scope: 'row'},
          h('div.name', {}, h('span.swatch', {}), s.name, s.me ? h('span.badge', {}, t('badge.you')) : null,
            s.seat === g.first ? h('span.badge', {title: t('tip.first')}, t('badge.first')) : null,
            s.due ? h('span.badge.due', {}, t('badge.due')) : null),
          h('div.details', {},
            h('span', {title: t('tip.placed')}, t('placed', {n: s.placed})), ' ',
            chars(s),
            lbb ? h('span.peeks', {title: t('tip.peeks')}, ' ', t('peeks', {n: s.peeks})) : null),
          h('div.won', {title: t('tip.won')}, s.contracts.length ? t('won.list', {n: s.contracts.length, list: s.contracts.join(', ')}) : t('won.none'))),
        h('td.num.score', {dataset: {value: s.score}}, tip(money(s.score), money(s.score), scoreWords(s), 'score:' + s.seat)))))));
}

// ---- the results

// scoreWords breaks a score down as the rule sheet counts it: the value of each contract won.
function scoreWords(s) {
  if (!s.contracts.length) return t('score.none');
  return t('score.sum', {list: s.contracts.map((c, i) => `${c} ${money((s.values || [])[i] || 0)}`).join(' + '), total: money(s.score)});
}

export const resultColumns = [{get title() { return t('col.won'); }, cell: (s) => (s.contracts.length ? scoreWords(s) : t('score.none'))}];
export const compareSeats = (a, b) => b.score - a.score || b.contracts.length - a.contracts.length;

// ---- the decision

export function renderDecision(st) {
  const d = st.decision;
  const g = st.game;
  const hand = h('div.hand', {'aria-label': t('hand.label')}, h('span.label', {}, t('hand.label')),
    g.hand.length ? g.hand.map((c) => h('span.card.mini.seat-' + st.me.seat, {title: t('tip.' + cardKind(c.card))}, cardArt(c.card, 'mini-art'), c.label)) : h('span.hint', {}, t('hand.empty')));
  if (!d) {
    return h('section#decision.panel.idle', {dataset: {kind: 'none', id: 0, round: g.round}, 'aria-label': t('decision.label')},
      h('p.prompt', {}, g.next.text + '.'), hand);
  }
  const box = h('section#decision.panel.mine', {dataset: {kind: d.kind, id: d.id, placed: d.placed, round: g.round, busy: ui.sending ? '1' : '0'}, 'aria-label': t('decision.yours')}, h('p.prompt', {}, d.prompt));
  const n = {i: 0};
  const choice = (content, props, onclick) => {
    const k = keyFor(n.i++);
    return h('button.choice', Object.assign({type: 'button', onclick, disabled: ui.sending, 'aria-keyshortcuts': k || null}, props), k ? h('kbd', {}, k) : null, content);
  };
  const parts = {place: placeChoices, assign: assignChoices, kill: targetChoices, remove: targetChoices, faceup: faceUpChoices}[d.kind];
  if (parts) box.append(...[].concat(parts(st, d, choice)));
  if (d.kind !== 'place') box.append(hand);
  return box;
}

function placeChoices(st, d, choice) {
  const g = st.game;
  if (my.picked) {
    const c = d.cards.find((c) => c.card === my.picked);
    const groups = g.bodies.map((b) => {
      const spots = [b.swiss, ...b.contracts.map((k) => k.id)].filter((s) => c.spots.includes(s));
      if (!spots.length) return null;
      return h('div.choices.spot-group', {role: 'group', 'aria-label': b.name}, h('span.label', {}, b.name),
        spots.map((s) => choice(s === b.swiss ? t('swiss.title') : spotName(st, s), {class: 'spot-choice', dataset: {key: 'spot:' + s, spot: s}, title: s === b.swiss ? t('tip.swiss') : null},
          () => send({kind: 'place', card: c.card, spot: s}))));
    });
    return [h('p.picked', {}, t('picked'), ' ', cardArt(c.card, 'mini-art'), h('strong', {}, c.label), ' ',
      h('button.back', {type: 'button', dataset: {key: 'unpick'}, onclick: () => { my.picked = null; render(); focusFirst('#decision .hand-card'); }}, t('unpick'), ' ', h('span.key-hint', {'aria-hidden': 'true'}, '(Esc)'))),
    h('div.spot-groups', {}, groups)];
  }
  const out = [h('div.choices.hand-choices', {role: 'group', 'aria-label': t('choose.card')},
    d.cards.map((c) => {
      const btn = choice([cardArt(c.card, 'mini-art'), c.label], {class: 'hand-card' + (c.spots.length ? '' : ' unplayable'), title: t('tip.' + cardKind(c.card)),
        disabled: ui.sending || !c.spots.length, dataset: {key: 'card:' + c.card, card: c.card}},
      () => { my.picked = c.card; if (my.replay) { clearTimeout(my.timer); my.replay = null; } render(); focusFirst('#decision .spot-choice'); });
      return c.spots.length ? btn : why(btn, t('why.nospot'));
    }))];
  if (d.can_peek && d.peekable.length) {
    const peeks = d.peekable.map((i) => {
      const c = g.cards[i - 1];
      return choice(t('peek.choice', {index: i, owner: seatName(st, c.seat), place: spotName(st, c.spot)}), {class: 'peek-choice', dataset: {key: 'peekc:' + i, index: i}},
        () => send({kind: 'peek', index: i}));
    });
    // Many cards to peek at: folded, so that the hand stays in sight (or click a card on the board).
    const few = peeks.length <= 4;
    out.push(h('details.peeks', {open: few || my.peeksOpen, ontoggle: (e) => { if (!few) my.peeksOpen = e.target.open; }},
      h('summary', {dataset: {key: 'peeks'}}, t('peek.summary', {n: peeks.length})),
      h('div.choices', {role: 'group', 'aria-label': t('peek.group')}, peeks)));
  }
  return out;
}

function assignChoices(st, d, choice) {
  return h('div.choices', {role: 'group', 'aria-label': t('assign.group')}, d.assign.map((c) => choice(`${c.name} (${money(c.value)})`, {dataset: {key: 'assign:' + c.id, contract: c.id}}, () => send({kind: 'assign', contract: c.id}))));
}

function targetChoices(st, d, choice) {
  const g = st.game;
  return h('div.choices', {role: 'group', 'aria-label': t('target.group.' + d.kind)},
    d.targets.map((i) => {
      const c = g.cards[i - 1];
      const words = c.seat === st.me.seat ? t('target.choice.you', {index: i, what: cardWords(c.card)}) : t('target.choice', {index: i, owner: st.seats[c.seat].name, what: cardWords(c.card)});
      return choice([cardArt(c.card, 'mini-art'), words], {class: 'target-choice', dataset: {key: d.kind + 'c:' + i, index: i}}, () => send({kind: d.kind, index: i}));
    }),
    d.can_pass ? choice(t('pass.choice'), {class: 'pass', dataset: {key: 'pass', pass: '1'}}, () => send({kind: 'pass'})) : null);
}

function faceUpChoices(st, d, choice) {
  const toggles = [1, 2, 3, 4, 5, 6].map((p) => choice(t('faceup.pos', {n: p}), {class: 'toggle', 'aria-pressed': String(my.faceup.has(p)), dataset: {key: 'pos:' + p, pos: p}},
    () => { if (my.faceup.has(p)) my.faceup.delete(p); else my.faceup.add(p); render(); }));
  return h('div.choices', {role: 'group', 'aria-label': t('faceup.group')}, toggles,
    choice(t('faceup.ok', {list: [...my.faceup].sort().join(', ') || t('faceup.none')}), {id: 'faceup-ok', dataset: {key: 'faceup-ok'}}, () => send({kind: 'faceup', positions: [...my.faceup].sort()})));
}

// ---- the rules panel: the cards, with their art

export function rulesExtra() {
  const kinds = [['bribe-4000', 'gloss.bribe'], ['da', 'gloss.da'], ['reporter', 'gloss.reporter'], ['hitman', 'gloss.hitman'], ['swiss', 'gloss.swiss'], ['contract', 'gloss.contract'], ['back', 'gloss.back']];
  return h('section.rule.glossary', {}, h('h3', {}, t('gloss.title')),
    h('dl', {}, kinds.map(([id, key]) => [h('dt', {}, art(sprite + '#' + id, 'gloss-art' + (id === 'back' ? ' back-art' : '')), t(key)), h('dd', {}, t(key + '.text'))])));
}

// ---- keys

export function onKey(e, st) {
  if (e.shiftKey && e.key.toLowerCase() === 'p' && st.decision.can_pass) { send({kind: 'pass'}); return true; }
  return false;
}

export function onEscape() {
  if (my.picked) {
    my.picked = null;
    render();
    focusFirst('#decision .hand-card');
    return true;
  }
  if (my.replay) { stopReplay(); return true; }
  return false;
}
