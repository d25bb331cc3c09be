// Corruptia's board: the brick-wall government program with its officials, employees and
// interview zones, the departments' values, the negotiation (the proposal under way, the
// offers, the blackmail cards played, the votes revealed together, and the table's chat beside
// them), the players' panel and the decision panel, for the shell's page (../app.js says what a
// board exports). It draws the State's game, seats and decision, which the server builds from
// the person's view only; the chat's lines are the log's lines of kind "chat".

import {h, ui, render, seatName, move, post, focusFirst, t, chatClass, chatParts} from '../../kit.js';

export const title = 'Corruptia';
export const setupText = 'The senators exchange keys, shuffle the 90 bills together (the bills set aside stay unseen by all), lay the three starting bills of the government program and deal each senator four bills. No one can see the deck.';

export const formatScore = (n) => `${n} pts`;

// What the board holds between updates.
const my = {
  slot: null,                   // the bill of the hand picked (its slot), for a proposal, a discard or a swap
  cell: null,                   // the cell picked for the proposal ("row,col")
  workers: [null, null, null],  // the worker picked for each vacancy ("$2@edu09", "employee", "employee@1")
  take: null,                   // the bill of the pile picked for a swap
  draft: '',                    // the chat message being typed
};

const HALF = 78;  // px: half a card of the brick wall
const ROW = 112;  // px: a row of the wall

export function helpItems() {
  return [
    h('li', {}, h('kbd', {}, '1'), '–', h('kbd', {}, '9'), ': the choices of the decision panel, in order (a bill, then a cell on the wall, then the workers).'),
    h('li', {}, h('kbd', {}, 'Esc'), ': put the picked bill back. ', h('kbd', {}, 'C'), ': write in the chat.'),
  ];
}

// onState forgets the picks of a decision that is gone (the chat's draft stays).
export function onState(prev, st) {
  const before = prev && prev.decision ? prev.decision.id : 0;
  if (!st.decision || st.decision.id !== before) {
    my.slot = null; my.cell = null; my.workers = [null, null, null]; my.take = null;
  }
}

function send(m) {
  move(m).then((ok) => { if (ok) { my.slot = null; my.cell = null; my.workers = [null, null, null]; my.take = null; } });
}

// ---- the lobby

export const settingsOf = (t) => ({amendments: t.amendments === undefined || t.amendments === null ? 3 : Number(t.amendments)});

export function settingsFields(f, lb) {
  const most = lb.max_amendments === undefined ? 9 : lb.max_amendments;
  const options = [];
  for (let n = 0; n <= most; n++) options.push(h('option', {value: n, selected: n === Number(f.amendments)}, String(n)));
  return [h('label', {}, t('set.amendments'), ' ', h('select#amendments', {name: 'amendments', dataset: {key: 'amendments'}, onchange: (e) => { f.amendments = Number(e.target.value); }}, options))];
}

export const describeSettings = (tb) => ' · ' + t(Number(tb.amendments) === 1 ? 'set.amendments.one' : 'set.amendments.n', {n: tb.amendments});
export const joinFlags = (t) => ` --game corruptia${Number(t.amendments) !== 3 ? ' --amendments ' + t.amendments : ''}`;

// ---- the header

export function header(st) {
  const g = st.game;
  const parts = [h('span', {}, g.round ? `Round ${g.round} of ${g.rounds}` : 'Before round 1')];
  if (g.first >= 0) parts.push(h('span', {}, 'Presidential token: ' + seatName(st, g.first)));
  if (g.die) parts.push(h('span.rule', {}, g.die === 'R' ? 'Die: R, revolution!' : 'Die: ' + g.die));
  return parts;
}

// ---- the board

const deptShort = {culture: 'Cul', defence: 'Def', economy: 'Eco', education: 'Edu', environment: 'Env'};

export function renderBoard(st) {
  const g = st.game;
  return h('section#board.ctia', {'aria-label': 'The government program', tabindex: -1},
    renderValues(st),
    h('div.ctia-main', {}, renderWall(st), renderNegotiation(st)),
    renderPile(st));
}

function renderValues(st) {
  const g = st.game;
  return h('div.ctia-values', {role: 'list', 'aria-label': 'What each department is worth'},
    g.values.map((d) => h('span.dept-chip.dept-' + d.dept, {role: 'listitem', title: `${d.dept}: each of its bills in a hand scores ${d.value}${d.mine ? `; you hold ${d.mine}` : ''}`},
      h('b', {}, deptShort[d.dept] || d.dept), ' ', h('span.dept-value', {dataset: {dept: d.dept, value: d.value}}, d.value),
      d.mine ? h('span.dept-mine', {}, ` ×${d.mine}`) : null)),
    h('span.ctia-die', {dataset: {die: g.die || ''}}, g.die ? (g.die === 'R' ? 'People\'s die: R (revolution: a no earns a token)' : `People's die: ${g.die} (a yes to a bill of ${g.die} earns a token)`) : 'People\'s die: not rolled'),
    h('span.ctia-supply', {}, `${g.supply} approval tokens in the box · ${g.deck_left} bills to deal`));
}

// cells the person may pick for the bill picked, in the decision due.
function pickCells(st) {
  const d = st.decision;
  if (!d || my.slot === null || !d.bills) return [];
  const b = d.bills.find((x) => x.slot === my.slot);
  return b ? b.cells : [];
}

function renderWall(st) {
  const g = st.game;
  const cells = pickCells(st);
  const at = [];
  for (const b of g.program) at.push(b.at);
  if (g.proposal) at.push(g.proposal.at);
  for (const c of cells) at.push(c.split(',').map(Number));
  const rows = at.map((a) => a[0]);
  const cols = at.map((a) => a[1]);
  const minR = Math.min(...rows), maxR = Math.max(...rows), minC = Math.min(...cols), maxC = Math.max(...cols);
  const wall = h('div.wall', {role: 'group', 'aria-label': 'The brick wall: the bills of the program'});
  wall.style.width = `${(maxC - minC + 2) * HALF + 8}px`;
  wall.style.height = `${(maxR - minR + 1) * ROW + 8}px`;
  const place = (el, r, c) => {
    el.style.left = `${(c - minC) * HALF + 4}px`;
    el.style.top = `${(r - minR) * ROW + 4}px`;
    el.style.width = `${2 * HALF - 4}px`;
    el.style.height = `${ROW - 6}px`;
    return el;
  };
  for (const b of g.program) wall.append(place(renderBill(st, b), b.at[0], b.at[1]));
  if (g.proposal) wall.append(place(renderProposed(st, g.proposal), g.proposal.at[0], g.proposal.at[1]));
  cells.forEach((c) => {
    const [r, col] = c.split(',').map(Number);
    const picked = my.cell === c;
    wall.append(place(h('button.cell-slot' + (picked ? '.picked' : ''), {type: 'button', dataset: {key: 'cell:' + c, cell: c},
      'aria-pressed': String(picked), title: `Put the bill at ${c}`, onclick: () => { my.cell = c; my.workers = [null, null, null]; render(); focusFirst('#decision .worker-select'); }},
    `${c}`), r, col));
  });
  return h('div.wall-scroll', {}, wall);
}

function budgetText(b) { return b.budget.map((x) => '$' + x).join(' '); }

function renderBill(st, b) {
  const chips = [];
  b.officials.forEach((n, i) => { if (n) chips.push(h('span.off', {title: `${n} official${n > 1 ? 's' : ''} expecting $${i + 1}`}, `$${i + 1}×${n}`)); });
  const emps = [];
  b.employees.forEach((n, s) => { for (let k = 0; k < n; k++) emps.push(h('span.emp.seat-' + s, {title: `${seatName(st, s)}'s employee`})); });
  const interview = [];
  b.interview.forEach((n, i) => { if (n) interview.push(`$${i + 1}×${n}`); });
  const label = `${b.bill}, ${b.title} (${b.dept}), budget ${budgetText(b)}; officials ${b.officials.map((n, i) => `$${i + 1}: ${n}`).join(', ')}` +
    (emps.length ? `; ${emps.length} employees` : '') + (interview.length ? `; in the interview zone: ${interview.join(', ')}` : '');
  return h('div.bill.dept-' + b.dept + (interview.length ? '.interviewing' : ''), {role: 'img', 'aria-label': label, title: label, dataset: {bill: b.bill, at: b.at.join(',')}},
    h('div.bill-head', {}, h('b', {}, b.bill), ' ', h('span.bill-title', {}, b.title)),
    h('div.bill-budget', {}, 'budget ', budgetText(b)),
    h('div.bill-workers', {}, chips, emps),
    interview.length ? h('div.interview', {}, 'interview: ', interview.join(' '), ' →') : null);
}

function renderProposed(st, p) {
  return h('div.bill.proposed.dept-' + p.dept, {dataset: {bill: p.bill, at: p.at.join(',')}, title: `Proposed by ${seatName(st, p.seat)}`},
    h('div.bill-head', {}, h('b', {}, p.bill), ' ', h('span.bill-title', {}, p.title)),
    h('div.bill-budget', {}, 'proposed · ', budgetText(p)),
    h('div.bill-workers', {}, p.workers.map((w) => h('span.off' + (w.employee ? '.empw' : ''), {}, w.employee ? `emp ${w.source}` : `$${w.income} ${w.source}`))));
}

// The negotiation, beside the wall: the proposal and what was done about it, the last vote,
// and the chat.
function renderNegotiation(st) {
  const g = st.game;
  const parts = [h('h2', {}, 'Negotiation')];
  const p = g.proposal;
  if (p) {
    parts.push(h('p.proposal', {}, h('strong', {}, seatName(st, p.seat)), ` proposes ${p.bill} (${p.title}, ${p.dept}) at ${p.at.join(',')}`),
      h('ul.workers', {'aria-label': 'Its workers, in the interview zone'}, p.workers.map((w) => h('li', {}, w.text))),
      h('p.hint', {}, `${p.amends_left} amendment${p.amends_left === 1 ? '' : 's'} left this turn.`));
    const offers = p.offers.map((n, s) => (n ? `${seatName(st, s)} offers ${n} employee${n > 1 ? 's' : ''}` : null)).filter(Boolean);
    if (offers.length) parts.push(h('p.offers', {}, 'Offers: ', offers.join('; '), '.'));
    for (const x of p.pressed) {
      parts.push(h('p.pressed', {}, `${seatName(st, x.by)} plays “${x.title}” on ${seatName(st, x.seat)}: vote ${x.demand}!`));
    }
  } else if (g.next.kind === 'propose') {
    parts.push(h('p.hint', {}, g.next.text + '.'));
  }
  const lv = g.last_vote;
  if (lv) {
    parts.push(h('div.last-vote', {'aria-label': 'The last vote, revealed together'},
      h('span.label', {}, `Votes on ${lv.bill}: `),
      lv.votes.map((v, s) => h('span.vote.vote-' + v + '.seat-' + s, {}, h('span.swatch', {}), `${seatName(st, s)} ${v}`))));
  }
  parts.push(renderChat(st));
  return h('aside.negotiation.panel', {'aria-label': 'Negotiation'}, parts);
}

// renderChat is the table's chat: what the players said (signed, kept beside the log; nothing
// said binds anyone), and a field to say something.
function renderChat(st) {
  const lines = ui.log.filter((l) => l.kind === 'chat' || l.kind === 'chatme').slice(-40);
  const list = h('ol#chat-lines', {'aria-label': 'Chat', 'aria-live': 'polite'},
    lines.length ? lines.map((l) => h('li.' + l.kind + chatClass(l), {}, chatParts(l))) : h('li.hint', {}, 'Promises, threats, deals: say them here. Every message is signed by its author and kept beside the log; none binds anyone.'));
  const input = h('input#chat-input', {type: 'text', maxlength: 500, placeholder: 'Say something to the table…', value: my.draft,
    dataset: {key: 'chat-input'}, 'aria-label': 'Your message', oninput: (e) => { my.draft = e.target.value; }});
  const form = h('form#chat-form', {onsubmit: (e) => {
    e.preventDefault();
    const text = my.draft.trim();
    if (!text) return;
    post('/api/chat', {text}).then(() => { my.draft = ''; render(); focusFirst('#chat-input'); }).catch(() => {});
  }}, input, h('button#chat-send', {type: 'submit', dataset: {key: 'chat-send'}}, 'Say'));
  setTimeout(() => { list.scrollTop = list.scrollHeight; }, 0);
  return h('section.chat', {}, h('h3', {}, 'Chat'), list, form);
}

function renderPile(st) {
  const g = st.game;
  return h('div.ctia-pile', {'aria-label': 'The discard pile, face up'},
    h('span.label', {}, 'Discard pile: '),
    g.pile.length ? g.pile.map((b) => billChip(b)) : h('span.hint', {}, 'empty'),
    g.opening ? h('span.hint', {}, ` (your opening discard: ${g.opening.bill})`) : null);
}

function billChip(b, extra) {
  return h('span.bill-chip.dept-' + b.dept, {title: `${b.bill}: ${b.title} (${b.dept}), budget ${budgetText(b)}`}, h('b', {}, b.bill), ' ', b.title, extra || '');
}

// ---- the players

export function renderSeats(st) {
  const head = h('thead', {}, h('tr', {}, h('th', {}, 'Senator'), h('th.num', {}, 'Score'), h('th.num', {title: 'public approval tokens'}, 'Appr.'),
    h('th.num', {title: 'well-connected employees in the reserve'}, 'Emp.'), h('th.num', {title: 'bills in hand'}, 'Bills')));
  const row = (s) => {
    const marks = [s.active ? 'proposing' : '', s.offered ? `offers ${s.offered}` : '', s.pressed ? `pressed: ${s.pressed}` : '', s.vote ? `last vote: ${s.vote}` : ''];
    const holds = s.holds_on && s.holds_on.length ? ' · holds blackmail on ' + s.holds_on.map((x) => seatName(st, x)).join(', ') : '';
    return h('tr', {class: ['seat-' + s.seat, s.me ? 'me' : '', s.due ? 'due' : '', s.winner ? 'winner' : ''].filter(Boolean).join(' '),
      dataset: {seat: s.seat}, title: (s.party || '') + holds},
    h('td.name', {}, h('span.swatch', {}), s.name, s.me ? h('span.badge', {}, 'you') : null, s.first ? h('span.badge', {title: 'holds the presidential token'}, 'P') : null,
      marks.some(Boolean) ? h('div.turn-marks', {}, marks.filter(Boolean).join(' · ')) : null,
      s.known ? knownHand(s.known) : null),
    h('td.num.score', {dataset: {value: s.score}}, s.score),
    h('td.num', {}, s.approval),
    h('td.num', {}, s.reserve),
    h('td.num', {}, s.bills));
  };
  return h('section.panel.seats', {'aria-label': 'Senators'}, h('table#scores', {}, head, h('tbody', {}, st.seats.map(row))));
}

// knownHand is an open seat's hand: its player left, every node rebuilt its secret and knows
// its bills (the server sends them only for such a seat).
function knownHand(bills) {
  return h('div.known', {dataset: {known: 'open'}}, h('span.known-mark', {}, t('mark.known')), ': ', bills.map((b) => billChip(b)));
}

// ---- the results

export const resultColumns = [
  {title: 'Approval', cell: (s) => String(s.approval)},
  {title: 'Employees left', cell: (s) => String(s.reserve)},
];
export const compareSeats = (a, b) => b.score - a.score || b.approval - a.approval;

// ---- the decision

export function renderDecision(st) {
  const d = st.decision;
  const g = st.game;
  const hand = h('div.hand', {'aria-label': 'Your hand'}, h('span.label', {}, 'Your hand'),
    g.hand.length ? g.hand.map((b) => billChip(b, ` · ${budgetText(b)}`)) : h('span.hint', {}, 'empty'),
    g.holds.length ? h('span.hint', {}, ' · your blackmail cards: ' + g.holds.map((x) => `“${x.title}” on ${seatName(st, x.target)}`).join(', ')) : null);
  if (!d) {
    return h('section#decision.panel.idle', {dataset: {kind: 'none', id: 0}}, h('p.prompt', {}, g.next.text + '.'), hand);
  }
  const box = h('section#decision.panel.mine', {dataset: {kind: d.kind, id: d.id, busy: ui.sending ? '1' : '0'}, 'aria-label': 'Your decision'}, h('p.prompt', {}, d.prompt));
  const n = {i: 0};
  const choice = (label, props, onclick) => {
    n.i++;
    return h('button.choice', Object.assign({type: 'button', onclick, disabled: ui.sending}, props), n.i <= 9 ? h('kbd', {}, String(n.i)) : null, label);
  };
  const parts = {discard: discardChoices, propose: proposeChoices, respond: respondChoices, negotiate: negotiateChoices, vote: voteChoices, swap: swapChoices}[d.kind];
  if (parts) box.append(...[].concat(parts(st, d, choice)).filter(Boolean));
  box.append(hand);
  return box;
}

function discardChoices(st, d, choice) {
  return h('div.choices', {role: 'group', 'aria-label': 'Discard a bill'},
    d.bills.map((b) => choice(`${b.bill} ${b.title} (${b.dept})`, {class: 'hand-card', dataset: {key: 'discard:' + b.bill, bill: b.bill}}, () => send({kind: 'discard', bill: b.bill}))));
}

// proposalBuilder: a bill of the hand, a cell of the wall, a worker for each vacancy.
function proposalBuilder(st, d, choice, verb) {
  const out = [];
  const playable = d.bills.filter((b) => b.cells.length);
  if (my.slot === null || !playable.some((b) => b.slot === my.slot)) {
    out.push(h('div.choices.hand-choices', {role: 'group', 'aria-label': 'Choose a bill of your hand'},
      d.bills.map((b) => choice(`${b.bill} ${b.title} (${b.dept}, ${budgetText(b)})`,
        {class: 'hand-card' + (b.cells.length ? '' : ' unplayable'), disabled: ui.sending || !b.cells.length, dataset: {key: 'bill:' + b.bill, bill: b.bill}},
        () => { my.slot = b.slot; my.cell = null; my.workers = [null, null, null]; render(); focusFirst('#decision .cell-choice'); }))));
    return out;
  }
  const b = d.bills.find((x) => x.slot === my.slot);
  out.push(h('p.picked', {}, 'Bill: ', h('strong', {}, `${b.bill} ${b.title}`), ` (${b.dept}, budget ${budgetText(b)}) `,
    h('button.back', {type: 'button', dataset: {key: 'unpick'}, onclick: () => { my.slot = null; my.cell = null; render(); }}, 'Another bill (Esc)')));
  out.push(h('div.choices', {role: 'group', 'aria-label': 'Choose a cell (or click one on the wall)'}, h('span.label', {}, 'At'),
    b.cells.map((c) => choice(c, {class: 'cell-choice' + (my.cell === c ? ' picked' : ''), 'aria-pressed': String(my.cell === c), dataset: {key: 'cellc:' + c, cell: c}},
      () => { my.cell = c; my.workers = [null, null, null]; render(); focusFirst('#decision .worker-select'); }))));
  if (!my.cell) return out;
  const sources = d.sources[my.cell] || [];
  const selects = b.budget.map((income, k) => {
    const opts = [h('option', {value: ''}, '—')];
    for (const s of sources) {
      if (s.income === income) opts.push(h('option', {value: s.worker, selected: my.workers[k] === s.worker, dataset: {kind: 'official', count: s.count}}, `$${income} official from ${s.bill} (${s.count})`));
    }
    for (const e of d.employees || []) {
      opts.push(h('option', {value: e.worker, selected: my.workers[k] === e.worker, dataset: {kind: 'employee', count: e.count}},
        e.seat === st.me.seat ? `your employee (${e.count})` : `${e.name}'s offered employee (${e.count})`));
    }
    return h('label.worker', {}, `Vacancy $${income} `, h('select.worker-select', {dataset: {key: `worker:${k}`, vacancy: k}, onchange: (e) => { my.workers[k] = e.target.value || null; render(); }}, opts));
  });
  const ready = my.workers.every(Boolean);
  out.push(h('div.choices.workers', {role: 'group', 'aria-label': 'Workers for the vacancies'}, selects,
    h('button#propose.choice', {type: 'button', disabled: ui.sending || !ready, dataset: {key: 'propose'},
      onclick: () => send({kind: verb, bill: b.bill, at: my.cell, workers: my.workers.slice()})}, verb === 'amend' ? 'Amend' : 'Propose')));
  return out;
}

function proposeChoices(st, d, choice) {
  if (d.can_nobill) {
    return h('div.choices', {role: 'group'}, choice('I have no bill to propose (show my hand)', {dataset: {key: 'nobill'}}, () => send({kind: 'nobill'})));
  }
  return proposalBuilder(st, d, choice, 'propose');
}

function blackmailChoices(st, d, choice) {
  if (!d.blackmail || !d.blackmail.length) return null;
  return h('div.choices', {role: 'group', 'aria-label': 'Blackmail'}, h('span.label', {}, 'Blackmail'),
    d.blackmail.flatMap((c) => ['yes', 'no'].map((v) => choice(`“${c.title}” on ${c.name}: vote ${v}`,
      {class: 'blackmail', dataset: {key: `blackmail:${c.target}:${v}`, target: c.target, demand: v}},
      () => send({kind: 'blackmail', target: c.target, demand: v})))));
}

function respondChoices(st, d, choice) {
  return [
    h('div.choices', {role: 'group'},
      choice('Offer one of my employees for this proposal', {disabled: ui.sending || !d.can_offer, dataset: {key: 'offer'}}, () => send({kind: 'offer'})),
      choice('Pass', {class: 'pass', dataset: {key: 'pass', pass: '1'}}, () => send({kind: 'pass'}))),
    blackmailChoices(st, d, choice),
  ];
}

function negotiateChoices(st, d, choice) {
  const out = [h('div.choices', {role: 'group'}, choice('Call the vote', {class: 'call', dataset: {key: 'call'}}, () => send({kind: 'call'})))];
  out.push(blackmailChoices(st, d, choice));
  if (d.can_amend) {
    out.push(h('details.amend', {open: my.slot !== null}, h('summary', {dataset: {key: 'amend-open'}}, `Or amend the proposal (${d.amends_left} left)`),
      proposalBuilder(st, d, choice, 'amend')));
  }
  return out;
}

function voteChoices(st, d, choice) {
  return [
    d.demand ? h('p.pressed', {}, `You are blackmailed to vote ${d.demand}.`) : null,
    h('div.choices', {role: 'group', 'aria-label': 'Your vote'}, d.votes.map((v) => choice(v, {class: 'vote-' + v + (d.demand === v ? ' demanded' : ''), dataset: {key: 'vote:' + v, vote: v}},
      () => send({kind: 'vote', vote: v})))),
  ];
}

function swapChoices(st, d, choice) {
  return [
    h('div.choices', {role: 'group', 'aria-label': 'Give up'}, h('span.label', {}, 'Give up'),
      d.bills.map((b) => choice(b.bill, {class: my.slot === b.slot ? 'picked' : '', 'aria-pressed': String(my.slot === b.slot), dataset: {key: 'give:' + b.bill}},
        () => { my.slot = b.slot; render(); }))),
    h('div.choices', {role: 'group', 'aria-label': 'Take'}, h('span.label', {}, 'Take'),
      d.take.map((b) => choice(`${b.bill} ${b.title}`, {class: my.take === b.bill ? 'picked' : '', 'aria-pressed': String(my.take === b.bill), dataset: {key: 'take:' + b.bill}},
        () => { my.take = b.bill; render(); }))),
    h('div.choices', {role: 'group'},
      h('button#swap.choice', {type: 'button', disabled: ui.sending || my.slot === null || !my.take, dataset: {key: 'swap'},
        onclick: () => send({kind: 'swap', bill: d.bills.find((b) => b.slot === my.slot).bill, take: my.take})}, 'Swap'),
      h('button.choice.pass', {type: 'button', disabled: ui.sending, dataset: {key: 'pass', pass: '1'}, onclick: () => send({kind: 'pass'})}, 'Pass')),
  ];
}

// ---- keys

export function onKey(e, st) {
  if (e.key.toLowerCase() === 'c') { focusFirst('#chat-input'); return true; }
  return false;
}

export function onEscape() {
  if (my.slot === null) return false;
  my.slot = null; my.cell = null; my.workers = [null, null, null];
  render();
  focusFirst('#decision .hand-card');
  return true;
}
