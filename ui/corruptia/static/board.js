// Corruptia's board: the brick-wall government program with its officials, employees and
// interview zones, the departments' values, the negotiation (the proposal under way, the
// offers, the blackmail cards played, the votes revealed together, and the table's chat beside
// them), the players' panel and the decision panel, for the shell's page (../app.js says what a
// board exports). It draws the State's game, seats and decision, which the server builds from
// the person's view only, in the page's language (lang/LANG.json); the chat's lines are the
// log's lines of kind "chat". Bills are said by their titles, places by the bills they touch,
// every number explains itself on tap (the shell's tip), every choice the person cannot make says
// why (the shell's why).

import {h, ui, render, seatName, move, post, focusFirst, t, keyFor, chatClass, chatParts, tip, why} from '../../kit.js';
import {picks, resetPicks, pickedBill, pickCell, builder} from './propose.js';
import {rulesPictures} from './pictures.js';

export const title = 'Corruptia';
export const setupText = 'The senators exchange keys, shuffle the 90 bills together, lay the three starting bills of the government program and deal each senator four bills. No one can see the deck.';
export const setup = () => t('setup');
export const formatScore = (n) => t('points', {n});
export const rulesExtra = () => rulesPictures();

// What the board holds between updates (the proposal's picks are propose.js's).
const my = {
  slot: null,      // the bill of the hand picked for a discard or a swap
  take: null,      // the bill of the pile picked for a swap
  amending: false, // the amendment's steps are open
  draft: '',       // the chat message being typed
};

const money = (n) => t('money', {n});
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

export function helpItems() {
  return [
    h('li', {}, t('help.choices')),
    h('li', {}, h('kbd', {}, 'Esc'), ': ', t('help.esc'), ' ', h('kbd', {}, 'Shift'), '+', h('kbd', {}, 'C'), ': ', t('help.chat')),
  ];
}

// onState forgets the picks of a decision that is gone (the chat's draft stays).
export function onState(prev, st) {
  const before = prev && prev.decision ? prev.decision.id : 0;
  if (!st.decision || st.decision.id !== before) {
    resetPicks(); my.slot = null; my.take = null; my.amending = false;
  }
}

function send(m) {
  move(m).then((ok) => { if (ok) { resetPicks(); my.slot = null; my.take = null; my.amending = false; } });
}

// ---- the lobby

export const settingsOf = (tb) => ({amendments: tb.amendments === undefined || tb.amendments === null ? 3 : Number(tb.amendments)});

export function settingsFields(f, lb) {
  const most = lb.max_amendments === undefined ? 9 : lb.max_amendments;
  const options = [];
  for (let n = 0; n <= most; n++) options.push(h('option', {value: n, selected: n === Number(f.amendments)}, String(n)));
  return [h('label', {}, t('set.amendments'), ' ', h('select#amendments', {name: 'amendments', dataset: {key: 'amendments'}, onchange: (e) => { f.amendments = Number(e.target.value); }}, options))];
}

export const describeSettings = (tb) => ' · ' + t(Number(tb.amendments) === 1 ? 'set.amendments.one' : 'set.amendments.n', {n: tb.amendments});
export const joinFlags = (tb) => ` --game corruptia${Number(tb.amendments) !== 3 ? ' --amendments ' + tb.amendments : ''}`;

// ---- the header

export function header(st) {
  const g = st.game;
  const parts = [h('span', {}, g.round ? t('round.of', {n: g.round, of: g.rounds}) : t('round.before'))];
  if (g.first >= 0) parts.push(h('span', {}, t('token.holder', {name: seatName(st, g.first)})));
  if (g.die) parts.push(h('span.rule', {}, t(g.die === 'R' ? 'die.header.R' : 'die.header', {dept: g.die_text})));
  return parts;
}

// ---- the board

export function renderBoard(st) {
  return h('section#board.ctia', {'aria-label': t('board.label'), tabindex: -1},
    renderValues(st),
    h('div.ctia-main', {}, renderWall(st), renderNegotiation(st)),
    renderPile(st));
}

function renderValues(st) {
  const g = st.game;
  const chips = g.values.map((d) => {
    const blocks = d.blocks.length ? d.blocks.map((b) => t('value.block', {bills: b[0], workers: b[1], n: b[0] * b[1]})).join(' + ') : t('value.none');
    const text = [cap(t('value.tip', {dept: d.name, value: d.value, blocks})), d.mine ? ' ' + t('value.mine', {n: d.mine, points: d.mine * d.value}) : ''].join('');
    const mine = d.mine ? ' ' + t('value.mine.short', {n: d.mine}) : '';
    return h('li.dept-chip.dept-' + d.dept, {}, tip([h('b', {}, d.name), ' ', h('span.dept-value', {dataset: {dept: d.dept, value: d.value}}, d.value),
      mine ? h('span.dept-mine', {}, mine) : null], `${d.name} ${d.value}${mine}`, text, 'value:' + d.dept));
  });
  const die = g.die ? t(g.die === 'R' ? 'die.R' : 'die.dept', {dept: g.die_text}) : t('die.none');
  const supply = t('supply', {n: g.supply, deck: g.deck_left});
  return h('div.ctia-values', {},
    h('ul.depts', {'aria-label': t('values.label')}, chips),
    g.round ? tip(h('span.ctia-die', {dataset: {die: g.die || ''}}, die), die, t(g.die === 'R' ? 'die.tip.R' : 'die.tip'), 'die') : null,
    tip(h('span.ctia-supply', {}, supply), supply, t('supply.tip', {n: g.supply, deck: g.deck_left}), 'supply'));
}

// picking is the bill picked for a proposal in the decision due, with where it may go.
function picking(st) {
  const d = st.decision;
  if (!d || !(d.kind === 'propose' || (d.kind === 'negotiate' && my.amending))) return null;
  return pickedBill(d);
}

// renderWall draws the program as a brick wall that fits its box's width (a grid of half
// cards: no sideways scroll), each bill with its title whole; on a narrow box the bills show a
// number, and a list beside says them in full.
function renderWall(st) {
  const g = st.game;
  const d = st.decision;
  const b = picking(st);
  const items = g.program.map((p) => ({at: p.at, el: () => renderBill(st, p)}));
  if (g.proposal) items.push({at: g.proposal.at, el: () => renderProposed(st, g.proposal)});
  if (b) {
    for (const c of d.places) {
      if (b.cells.includes(c.key)) {
        items.push({at: c.at, el: () => h('button.cell-slot' + (picks.cell === c.key ? '.picked' : ''), {type: 'button', dataset: {key: 'cell:' + c.key, cell: c.key},
          'aria-pressed': String(picks.cell === c.key), 'aria-label': t('cell.here', {place: c.place}),
          onclick: () => { pickCell(d, c.key); render(); focusFirst('#decision .worker-choice'); }}, t('cell.here.short'))});
      } else if (b.why && b.why[c.key]) {
        items.push({at: c.at, el: () => h('div.cell-slot.not-here', {}, tip('✕', '✕ ' + t('cell.nothere', {place: c.place}), b.why[c.key], 'cell:' + c.key))});
      }
    }
  }
  const rows = items.map((i) => i.at[0]), cols = items.map((i) => i.at[1]);
  const minR = Math.min(...rows), minC = Math.min(...cols), maxC = Math.max(...cols);
  const span = maxC - minC + 2;
  const slot = document.querySelector('#board-slot');
  const width = (slot ? slot.clientWidth : innerWidth) - (innerWidth > 1100 ? 330 : 16);
  const compact = (width / span) * 2 < 104;
  const wall = h('div.wall' + (compact ? '.compact' : ''), {role: 'group', 'aria-label': t('wall.label')});
  wall.style.gridTemplateColumns = `repeat(${span}, minmax(0, 1fr))`;
  for (const it of items) {
    const el = it.el();
    el.style.gridColumn = `${it.at[1] - minC + 1} / span 2`;
    el.style.gridRow = String(it.at[0] - minR + 1);
    wall.append(el);
  }
  const parts = [wall];
  if (compact) {
    parts.push(h('ol.wall-legend', {'aria-label': t('wall.legend')}, g.program.map((p) => h('li.dept-' + p.dept, {value: p.index + 1},
      h('span.dept-dot', {}), h('strong', {}, p.title), ` (${p.dept_name}): `, officialsText(st, p)))));
  }
  return h('div.wall-box', {}, parts);
}

// officialsText is who works on a program bill, in words.
function officialsText(st, p) {
  const ws = [];
  p.officials.forEach((n, i) => { if (n) ws.push(t('bill.officials', {n, money: money(i + 1)})); });
  const emps = p.employees.reduce((a, n) => a + n, 0);
  if (emps) ws.push(t(emps === 1 ? 'bill.employees.one' : 'bill.employees', {n: emps}));
  return ws.join(', ') || t('bill.nobody');
}

function billText(st, p) {
  const parts = [t('bill.tip', {title: p.title, dept: p.dept_name, workers: officialsText(st, p), n: p.workers})];
  p.employees.forEach((n, s) => { if (n) parts.push(t('bill.tip.employees', {n, name: seatName(st, s)})); });
  const iv = [];
  p.interview.forEach((n, i) => { if (n) iv.push(t('bill.officials', {n, money: money(i + 1)})); });
  if (iv.length) parts.push(t('bill.tip.interview', {list: iv.join(', ')}));
  return parts.join(' ');
}

function renderBill(st, p) {
  const emps = [];
  p.employees.forEach((n, s) => { for (let k = 0; k < n; k++) emps.push(h('span.emp.seat-' + s, {})); });
  const interviewing = p.interview.some(Boolean);
  const face = [
    h('span.bill-num', {}, String(p.index + 1)), ' ',
    h('span.bill-title', {}, p.title), ' ',
    h('span.bill-workers', {}, p.officials.map((n, i) => (n ? [h('span.off.inc-' + (i + 1), {}, t('bill.officials.short', {n, money: money(i + 1)})), ' '] : null)), emps),
    interviewing ? [' ', h('span.interview', {}, t('bill.interview', {n: p.interview.reduce((a, n) => a + n, 0)}))] : null,
  ];
  return h('div.bill.dept-' + p.dept + (interviewing ? '.interviewing' : ''), {dataset: {bill: p.bill, at: p.at.join(',')}},
    tip(h('span.bill-face', {}, face), null, billText(st, p), 'bill:' + p.bill));
}

function renderProposed(st, p) {
  const text = t('proposed.tip', {name: seatName(st, p.seat), title: p.title, dept: p.dept_name, place: p.place, workers: p.workers.map((w) => w.text).join('; ')});
  return h('div.bill.proposed.dept-' + p.dept, {dataset: {bill: p.bill, at: p.at.join(',')}},
    tip(h('span.bill-face', {}, h('span.bill-title', {}, p.title), ' ', h('span.sub', {}, t('proposed.by', {name: seatName(st, p.seat)}))),
      null, text, 'proposed'));
}

// The negotiation, beside the wall: the proposal and what was done about it, the last vote,
// what a person may do here, and the chat.
function renderNegotiation(st) {
  const g = st.game;
  const parts = [h('h2', {}, t('negot.title'))];
  const p = g.proposal;
  if (p) {
    parts.push(h('p.proposal', {}, t('negot.proposal', {name: seatName(st, p.seat), title: p.title, dept: p.dept_name, place: p.place})),
      h('ul.workers', {'aria-label': t('negot.workers')}, p.workers.map((w) => h('li', {}, w.text))),
      h('p.hint', {}, t(p.amends_left === 1 ? 'negot.amends.one' : 'negot.amends', {n: p.amends_left})));
    const offers = p.offers.map((n, s) => (n ? t(n === 1 ? 'negot.offer.one' : 'negot.offer', {name: seatName(st, s), n}) : null)).filter(Boolean);
    if (offers.length) parts.push(h('p.offers', {}, offers.join('; ') + '.'));
    for (const x of p.pressed) parts.push(h('p.pressed', {}, x.text));
  } else {
    parts.push(h('p.hint', {}, g.next.text + '.'));
  }
  const lv = g.last_vote;
  if (lv) {
    parts.push(h('div.last-vote', {role: 'group', 'aria-label': t('negot.lastvote')},
      h('span.label', {}, t('negot.votes', {title: lv.title})),
      lv.votes.map((v, s) => h('span.vote.vote-' + v + '.seat-' + s, {}, h('span.swatch', {}), `${seatName(st, s)}: ${lv.vote_names[s]}`))));
  }
  parts.push(h('details.negot-help', {}, h('summary', {dataset: {key: 'negot-help'}}, t('negot.help.title')), h('p', {}, t('negot.help'))));
  parts.push(renderChat(st));
  return h('aside.negotiation.panel', {'aria-label': t('negot.title')}, parts);
}

// renderChat is the table's chat: what the players said (signed, kept beside the log; nothing
// said binds anyone), and a field to say something.
function renderChat(st) {
  const lines = ui.log.filter((l) => l.kind === 'chat' || l.kind === 'chatme').slice(-40);
  const list = h('ol#chat-lines', {'aria-label': t('chat.title'), 'aria-live': 'polite', tabindex: 0},
    lines.length ? lines.map((l) => h('li.' + l.kind + chatClass(l), {}, chatParts(l))) : h('li.hint', {}, t('chat.empty')));
  const input = h('input#chat-input', {type: 'text', maxlength: 500, placeholder: t('chat.placeholder'), value: my.draft,
    dataset: {key: 'chat-input'}, 'aria-label': t('chat.label'), oninput: (e) => { my.draft = e.target.value; }});
  const form = h('form#chat-form', {onsubmit: (e) => {
    e.preventDefault();
    const text = my.draft.trim();
    if (!text) return;
    // The field empties at once: a line typed while this one is on its way is the next line,
    // never wiped when this one arrives. A line that fails comes back to an empty field.
    my.draft = '';
    render();
    focusFirst('#chat-input');
    post('/api/chat', {text}).catch(() => { if (!my.draft) { my.draft = text; render(); } });
  }}, input, h('button#chat-send', {type: 'submit', dataset: {key: 'chat-send'}}, t('chat.send')));
  // (The list the page shows: the one drawn here, or the one morph kept.)
  setTimeout(() => { const l = document.querySelector('#chat-lines'); if (l) l.scrollTop = l.scrollHeight; }, 0);
  return h('section.chat', {}, h('h3', {}, t('chat.title')), list, form);
}

function renderPile(st) {
  const g = st.game;
  return h('div.ctia-pile', {role: 'group', 'aria-label': t('pile.label')},
    h('span.label', {}, t('pile.title')),
    g.pile.length ? g.pile.map((b) => billChip(b)) : h('span.hint', {}, t('pile.empty')),
    g.opening ? h('span.hint', {}, t('pile.opening', {title: g.opening.title})) : null);
}

export function billChip(b, extra) {
  return h('span.bill-chip.dept-' + b.dept, {}, h('span.dept-dot', {}), h('b', {}, b.title), ` (${b.dept_name})`, extra || '');
}

// ---- the players

// pointsText says how a seat's score is made, in the sheet's terms.
function pointsText(st, s) {
  const p = s.points;
  if (!p) return '';
  const parts = [t('points.approval', {n: s.approval, points: p.approval}), t('points.employees', {n: s.reserve, points: p.employees})];
  for (const x of p.hand) parts.push(t(x.n === 1 ? 'points.hand.one' : 'points.hand', {n: x.n, dept: x.name, value: x.value, points: x.points}));
  if (p.unseen) parts.push(t(p.unseen === 1 ? 'points.unseen.one' : 'points.unseen', {n: p.unseen}));
  return parts.join(' + ') + ' = ' + t('points', {n: s.score});
}

export function renderSeats(st) {
  const head = h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('col.senator')), h('th.num', {scope: 'col'}, t('col.score'))));
  const row = (s) => {
    // The person due to propose with no bill to propose is not "proposing" (next.nobill).
    const active = s.me && st.game.next.nobill ? t('mark.nobill') : t('mark.active');
    const marks = [s.active ? active : '', s.offered ? t('mark.offered', {n: s.offered}) : '', s.pressed ? t('mark.pressed', {vote: t('vote.' + s.pressed)}) : '',
      s.vote ? t('mark.vote', {vote: t('vote.' + s.vote)}) : ''].filter(Boolean);
    const holds = s.holds_on && s.holds_on.length ? ' ' + t('mark.holds', {names: s.holds_on.map((x) => seatName(st, x)).join(', ')}) : '';
    // stat is one of the seat's numbers, in words, explained on a tap.
    const stat = (key, n, text) => {
      const words = t(n === 1 ? key + '.one' : key, {n});
      return tip(words, words, text, `${key}:${s.seat}`);
    };
    return h('tr', {class: ['seat-' + s.seat, s.me ? 'me' : '', s.due ? 'due' : '', s.winner ? 'winner' : ''].filter(Boolean).join(' '), dataset: {seat: s.seat}},
      h('th.name', {scope: 'row'}, h('span.swatch', {}), s.name, s.first ? h('span.badge', {}, t('badge.token')) : null,
        h('div.party', {}, tip(s.party, s.party, t('tip.party', {party: s.party}) + holds, 'party:' + s.seat)),
        h('div.stats', {}, stat('stat.tokens', s.approval, t('tip.approval', {n: s.approval})), ' · ',
          stat('stat.employees', s.reserve, t('tip.reserve', {n: s.reserve})), ' · ',
          stat('stat.bills', s.bills, t('tip.bills', {n: s.bills}))),
        marks.length ? h('div.turn-marks', {}, marks.join(' · ')) : null,
        s.known ? knownHand(s.known) : null),
      h('td.num.score', {dataset: {value: s.score}}, tip(String(s.score), `${s.score} ${t('col.score')}`, pointsText(st, s), 'score:' + s.seat)));
  };
  return h('section.panel.seats', {'aria-label': t('seats.label')}, h('table#scores', {}, head, h('tbody', {}, st.seats.map(row))));
}

// knownHand is an open seat's hand: its player left, every node rebuilt its secret and knows
// its bills (the server sends them only for such a seat).
function knownHand(bills) {
  return h('div.known', {dataset: {known: 'open'}}, h('span.known-mark', {}, t('mark.known')), ': ', bills.map((b) => billChip(b)));
}

// ---- the results: each score broken down as the sheet counts it

export const resultColumns = [
  {get title() { return t('result.approval'); }, cell: (s) => (s.points ? t('result.times5', {n: s.approval, points: s.points.approval}) : String(s.approval))},
  {get title() { return t('result.employees'); }, cell: (s) => (s.points ? t('result.times5', {n: s.reserve, points: s.points.employees}) : String(s.reserve))},
  {get title() { return t('result.property'); }, cell: (s) => {
    const p = s.points;
    if (!p) return '';
    const lines = p.hand.map((x) => t(x.n === 1 ? 'points.hand.one' : 'points.hand', {n: x.n, dept: x.name, value: x.value, points: x.points}));
    return h('span.property', {}, lines.length ? lines.join(' + ') + ' = ' + p.property : t('result.property.none'));
  }},
];
export const compareSeats = (a, b) => b.score - a.score || b.approval - a.approval;

// ---- the decision

export function renderDecision(st) {
  const d = st.decision;
  const g = st.game;
  const hand = h('div.hand', {role: 'group', 'aria-label': t('hand.label')}, h('span.label', {}, t('hand.label')),
    g.hand.length ? g.hand.map((b) => billChip(b)) : h('span.hint', {}, t('hand.empty')),
    g.holds.length ? h('span.hint', {}, ' · ' + t('hand.cards', {list: g.holds.map((x) => t('card.on', {title: x.title, name: seatName(st, x.target)})).join(', ')})) : null);
  if (!d) {
    return h('section#decision.panel.idle', {dataset: {kind: 'none', id: 0}, 'aria-label': t('decision.label')}, h('p.prompt', {}, g.next.text + '.'), hand);
  }
  const box = h('section#decision.panel.mine', {dataset: {kind: d.kind, id: d.id, busy: ui.sending ? '1' : '0'}, 'aria-label': t('decision.yours')}, h('p.prompt', {}, d.prompt));
  // choice is a button of the decision: a choice the person may take has the next key; one
  // the person may not take is disabled, without a key, with its reason (why) beside it.
  let n = 0;
  const choice = (label, props, onclick, reason) => {
    if (reason) return why(h('button.choice', Object.assign({type: 'button', onclick}, props), label), reason);
    const k = keyFor(n++);
    return h('button.choice', Object.assign({type: 'button', onclick, disabled: ui.sending, 'aria-keyshortcuts': k || null}, props), k ? [h('kbd', {}, k), ' '] : null, label);
  };
  const parts = {discard: discardChoices, propose: proposeChoices, respond: respondChoices, negotiate: negotiateChoices, vote: voteChoices, swap: swapChoices}[d.kind];
  if (parts) box.append(...[].concat(parts(st, d, choice)).filter(Boolean));
  if (d.kind !== 'propose' && d.kind !== 'discard' && d.kind !== 'swap' && !my.amending) box.append(hand);
  return box;
}

function discardChoices(st, d, choice) {
  return h('div.choices', {role: 'group', 'aria-label': t('discard.label')},
    d.bills.map((b) => choice([h('span.dept-dot.dept-' + b.dept, {}), h('strong', {}, b.title), ` (${b.dept_name})`],
      {class: 'hand-card', dataset: {key: 'discard:' + b.bill, bill: b.bill}}, () => send({kind: 'discard', bill: b.bill}))));
}

function proposeChoices(st, d, choice) {
  if (d.can_nobill) {
    return h('div.choices', {role: 'group'}, choice(t('go.nobill'), {dataset: {key: 'nobill'}}, () => send({kind: 'nobill'})));
  }
  return builder(st, d, choice, 'propose', send);
}

// blackmailChoices are the person's blackmail cards, a row each: the card, on whom, and the two
// demands (or why it cannot be played now). A demand's button is named by what it shows and
// described by its row's card (a name that says more than the button shows is one a person
// who speaks to the page cannot say).
function blackmailChoices(st, d, choice) {
  if (!d.blackmail || !d.blackmail.length) return null;
  return h('div.blackmail-choices', {role: 'group', 'aria-label': t('blackmail.label')}, h('h3.step', {}, t('blackmail.label')),
    d.blackmail.map((c, i) => h('div.choices.blackmail-row', {}, h('span.label', {id: 'blackmail-card-' + i}, t('card.on', {title: c.title, name: c.name})),
      c.why ? h('span.why', {}, c.why) : ['yes', 'no'].map((v) => choice(t('blackmail.demand', {vote: t('vote.' + v)}),
        {class: 'blackmail', 'aria-describedby': 'blackmail-card-' + i, dataset: {key: `blackmail:${c.target}:${v}`, target: c.target, demand: v}},
        () => send({kind: 'blackmail', target: c.target, demand: v}))))));
}

function respondChoices(st, d, choice) {
  return [
    h('div.choices', {role: 'group'},
      choice(t('go.offer'), {dataset: {key: 'offer'}}, () => send({kind: 'offer'}), d.offer_why),
      choice(t('go.pass'), {class: 'pass', dataset: {key: 'pass', pass: '1'}}, () => send({kind: 'pass'}))),
    blackmailChoices(st, d, choice),
  ];
}

function negotiateChoices(st, d, choice) {
  const out = [h('div.choices', {role: 'group'},
    choice(t('go.call'), {class: 'call', dataset: {key: 'call'}}, () => send({kind: 'call'})),
    my.amending ? null : choice(t('go.amend.open', {n: d.amends_left || 0}), {class: 'amend-open', dataset: {key: 'amend-open'}},
      () => { my.amending = true; render(); focusFirst('#decision .hand-card:not([disabled])'); }, d.can_amend ? '' : d.amend_why))];
  if (my.amending && d.can_amend) {
    out.push(h('div.amend', {role: 'group', 'aria-label': t('amend.label')}, builder(st, d, choice, 'amend', send),
      h('button.back', {type: 'button', dataset: {key: 'amend-close'}, onclick: () => { my.amending = false; resetPicks(); render(); }}, t('amend.close'))));
  } else {
    out.push(blackmailChoices(st, d, choice));
  }
  return out;
}

function voteChoices(st, d, choice) {
  return [
    d.demand ? h('p.pressed', {}, t('vote.pressed', {vote: t('vote.' + d.demand)})) : null,
    h('div.choices', {role: 'group', 'aria-label': t('vote.label')}, d.votes.map((v) => choice(v.text,
      {class: 'vote-' + v.vote + (d.demand === v.vote ? ' demanded' : ''), dataset: {key: 'vote:' + v.vote, vote: v.vote}},
      () => send({kind: 'vote', vote: v.vote}), v.why))),
  ];
}

function swapChoices(st, d, choice) {
  const why = my.slot === null ? t('why.swap.give') : !my.take ? t('why.swap.take') : '';
  return [
    h('div.choices', {role: 'group', 'aria-label': t('swap.give')}, h('span.label', {}, t('swap.give')),
      d.bills.map((b) => choice(b.title, {class: my.slot === b.slot ? 'picked' : '', 'aria-pressed': String(my.slot === b.slot), dataset: {key: 'give:' + b.bill}},
        () => { my.slot = b.slot; render(); }))),
    h('div.choices', {role: 'group', 'aria-label': t('swap.take')}, h('span.label', {}, t('swap.take')),
      d.take.map((b) => choice(b.title, {class: my.take === b.bill ? 'picked' : '', 'aria-pressed': String(my.take === b.bill), dataset: {key: 'take:' + b.bill}},
        () => { my.take = b.bill; render(); }))),
    h('div.choices', {role: 'group'},
      choice(t('go.swap'), {id: 'swap', dataset: {key: 'swap'}},
        () => send({kind: 'swap', bill: d.bills.find((b) => b.slot === my.slot).bill, take: my.take}), why),
      choice(t('go.pass'), {class: 'pass', dataset: {key: 'pass', pass: '1'}}, () => send({kind: 'pass'}))),
  ];
}

// ---- keys

export function onKey(e) {
  if (e.key === 'C' && e.shiftKey) { focusFirst('#chat-input'); return true; }
  return false;
}

export function onEscape() {
  if (picks.slot === null && !my.amending) return false;
  if (picks.cell !== null) picks.cell = null;
  else if (picks.slot !== null) resetPicks();
  else my.amending = false;
  render();
  focusFirst('#decision button.choice:not([disabled])');
  return true;
}

