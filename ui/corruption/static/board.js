// Corruption's board: the bodies with their contracts and Swiss accounts, the cards placed,
// the players' panel and the decision panel, for the shell's page (../app.js says what a board
// exports). It draws the State's game, seats and decision, which the server builds from the
// person's view only.

import {h, ui, render, seatName, move, focusFirst} from '../kit.js';

export const title = 'Corruption';
export const setupText = 'The players exchange keys, shuffle the contract deck together and draw the first player. No one can see the deck.';

const money = (n) => '$' + Number(n).toLocaleString('en-US');
export const formatScore = money;

// What the board holds between updates.
const my = {
  picked: null,        // the card chosen from the hand, before its place
  faceup: new Set(),   // the free-stud positions ticked
  peeksOpen: false,    // the list of cards to peek at is unfolded
  lastRoundOpen: true, // the summary of the last round is unfolded
};

export function helpItems() {
  return [
    h('li', {}, 'Placing: ', h('kbd', {}, '1'), '–', h('kbd', {}, '9'), ' take the card from your hand, then where it goes.'),
    h('li', {}, h('kbd', {}, 'Esc'), ': put the chosen card back; ', h('kbd', {}, 'P'), ': pass (reporter).'),
  ];
}

// onState forgets the choices of a decision that is gone.
export function onState(prev, st) {
  const before = prev && prev.decision ? prev.decision.id : 0;
  if (!st.decision || st.decision.id !== before) { my.picked = null; my.faceup = new Set(); my.peeksOpen = false; }
}

function send(m) {
  move(m).then((ok) => { if (ok) my.picked = null; });
}

// ---- the lobby

export const settingsOf = (t) => ({variant: t.variant, lbb: t.lbb});

export function settingsFields(f, lb) {
  return [
    h('label', {}, 'Variant ', h('select#variant', {name: 'variant', dataset: {key: 'variant'}, onchange: (e) => { f.variant = e.target.value; }},
      lb.variants.map((v) => h('option', {value: v, selected: v === f.variant}, v)))),
    h('label.check', {}, h('input#lbb', {name: 'lbb', type: 'checkbox', checked: f.lbb, dataset: {key: 'lbb'}, onchange: (e) => { f.lbb = e.target.checked; }}), ' Little black book (two peeks each)'),
  ];
}

export const describeSettings = (t) => ` · ${t.variant}${t.lbb ? ' · little black book' : ''}`;
export const joinFlags = (t) => `${t.variant !== 'standard' ? ' --variant ' + t.variant : ''}${t.lbb ? ' --lbb' : ''}`;

// ---- the header

const phaseWords = (p) => ({deal: 'Dealing', 'face-up choice': 'Free-stud choice', corruption: 'Corruption', reveal: 'Reveal', awarding: 'Awarding', over: 'Game over'}[p] || p);

export function header(st) {
  const g = st.game;
  return [
    h('span', {}, `Round ${g.round} of 4`),
    h('span', {}, phaseWords(g.phase)),
    g.phase !== 'over' ? h('span.rule', {}, g.face_up_rule) : null,
  ].filter(Boolean);
}

// ---- the board

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

export function renderBoard(st) {
  const g = st.game;
  return h('section#board', {'aria-label': 'The table', tabindex: -1}, renderStepper(g), renderLastRound(st), h('div.bodies', {}, g.bodies.map((b) => renderBody(st, b))));
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
    const c = my.picked && d.cards.find((c) => c.card === my.picked);
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
    const placeBtn = act.spots.has(id) ? h('button.place-here', {type: 'button', dataset: {key: 'here:' + id, spot: id}, onclick: () => send({kind: 'place', card: my.picked, spot: id})}, 'Place here') : null;
    const assignBtn = act.assign.has(id) ? h('button.place-here', {type: 'button', dataset: {key: 'assign-here:' + id, contract: id}, onclick: () => send({kind: 'assign', contract: id})}, 'Assign here') : null;
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
      onclick: () => send({kind: verb, index: c.index})}, body);
  }
  return h('div.' + classes, {title, role: 'img', 'aria-label': title}, body);
}

// renderLastRound sums up the previous round's awarding while the next one is played.
function renderLastRound(st) {
  const g = st.game;
  if (g.round < 2 || g.phase === 'awarding' || g.phase === 'reveal' || g.phase === 'over') return null;
  const lines = ui.log.filter((l) => l.round === g.round - 1 && ['awarded', 'deferred', 'cancelled'].includes(l.kind));
  if (!lines.length) return null;
  return h('details.last-round', {open: my.lastRoundOpen, ontoggle: (e) => { my.lastRoundOpen = e.target.open; }}, h('summary', {dataset: {key: 'last-round'}}, `Round ${g.round - 1}: how the contracts went`),
    h('ul', {}, lines.map((l) => h('li.' + l.kind, {}, l.text))));
}

// ---- the players

export function renderSeats(st) {
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

// ---- the results

export const resultColumns = [{title: 'Contracts won', cell: (s) => s.contracts.join(', ') || '—'}];
export const compareSeats = (a, b) => b.score - a.score || b.contracts.length - a.contracts.length;

// ---- the decision

export function renderDecision(st) {
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
  const parts = {place: placeChoices, assign: assignChoices, kill: targetChoices, remove: targetChoices, faceup: faceUpChoices}[d.kind];
  if (parts) box.append(...[].concat(parts(st, d, choice)));
  box.append(hand);
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
        spots.map((s) => choice(s === b.swiss ? 'Swiss account' : spotName(st, s), {class: 'spot-choice', dataset: {key: 'spot:' + s, spot: s}},
          () => send({kind: 'place', card: c.card, spot: s}))));
    });
    return [h('p.picked', {}, 'Card: ', h('strong', {}, c.label), ' ',
      h('button.back', {type: 'button', dataset: {key: 'unpick'}, onclick: () => { my.picked = null; render(); focusFirst('#decision .hand-card'); }}, 'Choose another card (Esc)')),
    h('div.spot-groups', {}, groups)];
  }
  const out = [h('div.choices.hand-choices', {role: 'group', 'aria-label': 'Choose a card from your hand'},
    d.cards.map((c) => choice(c.label, {class: 'hand-card' + (c.spots.length ? '' : ' unplayable'), disabled: ui.sending || !c.spots.length, dataset: {key: 'card:' + c.card, card: c.card}, 'aria-pressed': 'false'},
      () => { my.picked = c.card; render(); focusFirst('#decision .spot-choice'); })))];
  if (d.can_peek && d.peekable.length) {
    const peeks = d.peekable.map((i) => {
      const c = g.cards[i - 1];
      return h('button.choice.peek-choice', {type: 'button', disabled: ui.sending, dataset: {key: 'peekc:' + i, index: i}, onclick: () => send({kind: 'peek', index: i})},
        `card ${i} (${st.seats[c.seat].name}, ${spotName(st, c.spot)})`);
    });
    // Many cards to peek at: folded, so that the hand stays in sight (or click a card on the board).
    const few = peeks.length <= 4;
    out.push(h('details.peeks', {open: few || my.peeksOpen, ontoggle: (e) => { if (!few) my.peeksOpen = e.target.open; }},
      h('summary', {dataset: {key: 'peeks'}}, `Or first peek at one of ${peeks.length} face-down cards (or click a card on the table)`),
      h('div.choices', {role: 'group', 'aria-label': 'Peek first'}, peeks)));
  }
  return out;
}

function assignChoices(st, d, choice) {
  return h('div.choices', {role: 'group'}, d.assign.map((c) => choice(`${c.name} (${money(c.value)})`, {dataset: {key: 'assign:' + c.id, contract: c.id}}, () => send({kind: 'assign', contract: c.id}))));
}

function targetChoices(st, d, choice) {
  const g = st.game;
  return h('div.choices', {role: 'group'},
    d.targets.map((i) => {
      const c = g.cards[i - 1];
      return choice(`card ${i}: ${st.seats[c.seat].name}'s ${cardWords(c)}`, {dataset: {key: d.kind + 'c:' + i, index: i}}, () => send({kind: d.kind, index: i}));
    }),
    d.can_pass ? choice('Pass (remove nothing)', {class: 'pass', dataset: {key: 'pass', pass: '1'}}, () => send({kind: 'pass'})) : null);
}

function faceUpChoices() {
  const boxes = [1, 2, 3, 4, 5, 6].map((p) => h('label.check', {}, h('input', {type: 'checkbox', checked: my.faceup.has(p), dataset: {key: 'pos:' + p, pos: p},
    onchange: (e) => { if (e.target.checked) my.faceup.add(p); else my.faceup.delete(p); }}), ` card ${p}`));
  return h('div.choices', {role: 'group', 'aria-label': 'Face-up positions'}, boxes,
    h('button#faceup-ok.choice', {type: 'button', disabled: ui.sending, dataset: {key: 'faceup-ok'}, onclick: () => send({kind: 'faceup', positions: [...my.faceup].sort()})}, 'Confirm'));
}

// ---- keys

export function onKey(e, st) {
  if (e.key.toLowerCase() === 'p' && st.decision.can_pass) { send({kind: 'pass'}); return true; }
  return false;
}

export function onEscape() {
  if (!my.picked) return false;
  my.picked = null;
  render();
  focusFirst('#decision .hand-card');
  return true;
}
