// Corrupted Kingdoms' board: the senates and kingdoms with their leaders and bills, the market,
// the guilty pleasures, the vote under way, the players' panel and the decision's choices, for
// the shell's page (../app.js says what a board exports). It draws the State's game, seats and
// decision, which the server builds from the person's view only. Every choice the decision
// lists carries its move in the typed syntax; the board posts that text and nothing else.

import {h, ui, render, seatName, move, focusFirst, keyFor, t, session} from '../../kit.js';

export const title = 'Corrupted Kingdoms';
export const setupText = 'The players draw their corporations and the starting player together, build and shuffle the favor, guilty pleasure, shareholder and chaos decks together, and deal the secret cards. No one can see a deck.';

export const formatScore = (n) => `${n} pt${n === 1 ? '' : 's'}`;

// What the board holds between updates.
const my = {
  favor: null,    // the market favor chosen, before take or place
  leader: null,   // the leader chosen, before its payment
  card: null,     // the chaos card chosen, before its arguments
  pleasure: null, // the guilty pleasure chosen, before its bonus
  timer: null,    // an answer waiting for the table's delay
  pending: '',    // its text
  passAhead: readAhead(),
};

function readAhead() {
  return session.get('kingdoms.passAhead') === '1';
}

function setAhead(on) {
  my.passAhead = on;
  session.set('kingdoms.passAhead', on ? '1' : '0');
}

const minionLetter = {golem: 'G', goblin: 'g', devil: 'D', zombie: 'Z'};

export function helpItems() {
  return [
    h('li', {}, 'Click a favor of the market to take it or place it on a bill; click a leader to influence it.'),
    h('li', {}, h('kbd', {}, 'Esc'), ': back to every choice; ', h('kbd', {}, 'P'), ': pass when asked to answer with a chaos card.'),
  ];
}

const answering = (d) => d && (d.kind === 'steal' || d.kind === 'answer');

// onState forgets the choices of a decision that is gone, and sends a pass set ahead when the
// table's delay is up.
export function onState(prev, st) {
  const before = prev && prev.decision ? prev.decision.id : 0;
  const d = st.decision;
  if (!d || d.id !== before) {
    my.favor = my.leader = my.card = my.pleasure = null;
    if (my.timer) clearTimeout(my.timer);
    my.timer = null;
    my.pending = '';
  }
  if (answering(d) && my.passAhead && !my.timer) schedule(d, 'pass');
}

// schedule sends text when the decision's answer delay is up (from when the table asked).
function schedule(d, text) {
  const wait = Math.max(0, d.since_ms + d.answer_delay_ms - (Date.now() + ui.skew));
  my.pending = text;
  my.timer = setTimeout(() => {
    my.timer = null;
    send(text);
  }, wait);
}

function send(text) {
  move({text}).then((ok) => {
    my.pending = ''; // taken, or refused (the banner says why): the choices are open again
    if (ok) { my.favor = my.leader = my.card = my.pleasure = null; }
  });
}

// choose answers the decision with a choice's text; an answer waits for the table's delay.
function choose(d, text) {
  if (answering(d)) {
    if (!my.timer) schedule(d, text);
    render();
    return;
  }
  send(text);
}

// ---- the lobby

export const settingsOf = (t) => ({rules: t.rules || 'advanced'});

export function settingsFields(f, lb) {
  const choices = lb.rule_choices || [{id: 'advanced', text: 'advanced'}];
  return [h('label', {}, t('set.rules'), ' ', h('select#rules-choice', {name: 'rules', dataset: {key: 'rules'}, onchange: (e) => { f.rules = e.target.value; }},
    choices.map((c) => h('option', {value: c.id, selected: c.id === f.rules}, `${c.id}: ${c.text}`))))];
}

export const describeSettings = (t) => ` · ${t.rules_text || t.rules}`;
export const joinFlags = (t) => ` --game kingdoms${t.rules && t.rules !== 'advanced' ? ' --rules ' + t.rules : ''}`;

// ---- the header

export function header(st) {
  const g = st.game;
  const parts = [h('span', {}, g.phase === 'setup' ? 'Setting up' : `Round ${g.round}`), h('span.rule', {}, g.next.text.replace(/^Round \d+: /, ''))];
  if (g.ending) parts.push(h('span.ending', {}, 'Ending: ' + g.ending));
  return parts;
}

// ---- the board

// targets says what the board's parts can be clicked for in the decision due.
function targets(st) {
  const d = st.decision;
  const a = {favors: new Set(), leaders: new Set(), pleasures: new Set(), bills: new Map()};
  if (!d) return a;
  for (const c of d.choices) {
    if (d.kind === 'action' && (c.group === 'take' || c.group === 'place')) a.favors.add(c.favor);
    if (d.kind === 'action' && c.group === 'influence') a.leaders.add(c.leader);
    if ((d.kind === 'pick') && c.pleasure) a.pleasures.add(c.pleasure);
    if (c.bill && (c.group === 'call' || (c.group === 'place' && c.favor === my.favor))) {
      if (!a.bills.has(c.bill)) a.bills.set(c.bill, []);
      a.bills.get(c.bill).push(c);
    }
  }
  return a;
}

export function renderBoard(st) {
  const g = st.game;
  const act = targets(st);
  return h('section#board', {'aria-label': 'The realm', tabindex: -1},
    renderVote(st),
    h('div.realm', {}, g.senates.map((s) => renderSenate(st, s, act)), g.kingdoms.map((k) => renderKingdom(st, k, act))),
    h('div.tableau', {}, renderMarket(st, act), renderDisplay(st, act), renderSupply(g)));
}

function minions(list) {
  return h('span.minions', {}, list.map((m) => h('span.minion.' + m, {title: m}, minionLetter[m] || '?')));
}

function controller(st, seat) {
  if (seat < 0) return h('span.ctl.free', {}, 'uncontrolled');
  return h('span.ctl.seat-' + seat, {}, h('span.swatch', {}), seatName(st, seat));
}

function renderLeader(st, l, act) {
  const body = [
    h('span.lname', {}, l.name),
    h('span.cost', {title: 'cost: ' + l.cost.join(' and ')}, minions(l.cost)),
    h('span.heart.h-' + l.heart, {title: 'guilty pleasure (heart): ' + l.heart}, l.heart),
    l.prefers ? h('span.ftype.t-' + l.prefers, {title: 'votes yes on a bill with a favor of ' + l.prefers}, l.prefers) : null,
    l.discount ? h('span.discount', {title: 'your guilty pleasures waive this many of its cost'}, `−${l.discount}`) : null,
    controller(st, l.controller)];
  const cls = 'leader' + (l.controller >= 0 ? '.seat-' + l.controller + '.owned' : '') + (my.leader === l.id ? '.chosen' : '');
  const label = `${l.name}: costs ${l.cost.join(' and ')}, heart ${l.heart}${l.prefers ? ', prefers ' + l.prefers : ''}, ${l.controller >= 0 ? 'controlled by ' + seatName(st, l.controller) : 'uncontrolled'}`;
  if (act.leaders.has(l.id)) {
    return h('button.' + cls + '.target', {type: 'button', 'aria-label': 'Influence ' + label, dataset: {key: 'leader:' + l.id, leader: l.id},
      onclick: () => { my.leader = l.id; my.favor = my.card = null; render(); focusFirst('#decision button.choice'); }}, body);
  }
  return h('div.' + cls, {role: 'img', 'aria-label': label, dataset: {leader: l.id}}, body);
}

function renderSenate(st, s, act) {
  return h('section.board-part.senate', {dataset: {senate: s.id}, 'aria-label': s.name},
    h('h2', {}, s.name), h('div.leaders', {}, s.leaders.map((l) => renderLeader(st, l, act))));
}

function renderKingdom(st, k, act) {
  return h('section.board-part.kingdom', {dataset: {kingdom: k.id}, 'aria-label': k.name},
    h('h2', {}, k.name),
    h('div.monarch', {}, h('span.lname', {}, k.monarch), h('span.ftype.t-' + k.prefers, {}, k.prefers), controller(st, k.allegiant)),
    h('div.leaders', {}, k.leaders.map((l) => renderLeader(st, l, act))),
    h('div.bills', {}, k.bills.map((b) => renderBill(st, b, act))));
}

function favorChip(f, extra) {
  return [h('span.fid', {}, f.id || f.favor), minions(f.minions), extra || null];
}

function renderBill(st, b, act) {
  const here = act.bills.get(b.id) || [];
  const buttons = here.map((c) => h('button.place-here', {type: 'button', dataset: {key: 'bill:' + c.text, text: c.text}, onclick: () => choose(st.decision, c.text)},
    c.group === 'call' ? 'Call a vote' : 'Place ' + c.favor + ' here'));
  return h('div.bill' + (b.voting ? '.voting' : '') + (b.favors.length >= 4 ? '.full' : ''), {dataset: {bill: b.id}},
    h('div.bill-head', {}, h('span.bname', {}, b.id), b.type ? h('span.ftype.t-' + b.type, {title: b.bonus || ''}, b.type + ' bill') : h('span.hint', {}, 'empty')),
    h('ol.bill-favors', {}, b.favors.map((f) => h('li.bfavor.t-' + f.type + '.seat-' + f.seat, {title: `${f.favor}, ${seatName(st, f.seat)}'s marker`},
      h('span.swatch', {}), favorChip(f)))),
    b.bonus && st.game.bonuses ? h('p.bonus', {}, b.bonus) : null,
    buttons);
}

function renderMarket(st, act) {
  const g = st.game;
  return h('section.board-part.market', {'aria-label': 'The market'},
    h('h2', {}, 'Market'),
    h('div.row', {}, g.market.map((f) => {
      if (!f) return h('span.favor.empty', {}, 'empty');
      const body = favorChip(f);
      if (act.favors.has(f.id)) {
        return h('button.favor.target.t-' + f.type + (my.favor === f.id ? '.chosen' : ''), {type: 'button', dataset: {key: 'favor:' + f.id, favor: f.id},
          'aria-label': `Take or place ${f.id} (${f.type}, ${f.minions.join(' and ')})`,
          onclick: () => { my.favor = f.id; my.leader = my.card = null; render(); focusFirst('#decision button.choice'); }}, body);
      }
      return h('div.favor.t-' + f.type, {dataset: {favor: f.id}}, body);
    })),
    h('p.hint', {}, `Favor deck ${g.favor_deck} · discarded ${g.favor_discard}`));
}

function renderDisplay(st, act) {
  const g = st.game;
  return h('section.board-part.display', {'aria-label': 'Guilty pleasures on display'},
    h('h2', {}, 'Guilty pleasures'),
    h('div.row', {}, g.display.map((p) => {
      if (!p) return h('span.pleasure.empty', {}, 'empty');
      const body = [h('span.heart.h-' + p.heart, {}, p.heart), h('span.ftype.t-' + p.type, {}, p.type)];
      if (act.pleasures.has(p.id)) {
        return h('button.pleasure.target' + (my.pleasure === p.id ? '.chosen' : ''), {type: 'button', dataset: {key: 'pleasure:' + p.id, pleasure: p.id},
          onclick: () => { my.pleasure = p.id; render(); focusFirst('#decision button.choice'); }}, body);
      }
      return h('div.pleasure', {dataset: {pleasure: p.id}}, body);
    })),
    h('p.hint', {}, `Deck ${g.pleasure_deck}`));
}

function renderSupply(g) {
  const s = g.supply;
  return h('section.board-part.supply', {'aria-label': 'The minion supply'}, h('h2', {}, 'Supply'),
    h('p', {}, ['golem', 'goblin', 'devil', 'zombie'].map((m) => h('span.count', {}, minions([m]), ' ', s[m]))));
}

function renderVote(st) {
  const v = st.game.vote;
  if (!v) return null;
  const chips = v.seats.map((s) => {
    const cast = v.revealed ? (v.votes[s] === 1 ? 'yes' : 'no') : 'sealed';
    return h('span.vote.seat-' + s + '.' + cast, {}, h('span.swatch', {}), seatName(st, s), ': ', cast);
  });
  return h('section.vote-banner' + (v.revealed ? '.revealed' : ''), {'aria-live': 'polite', dataset: {bill: v.bill}},
    h('strong', {}, v.text + '.'), ' ', chips,
    v.revealed && (v.extra_yes || v.extra_no) ? h('span.extra', {}, ` chaos cards: +${v.extra_yes} for, +${v.extra_no} against`) : null);
}

// ---- the players

export function renderSeats(st) {
  const g = st.game;
  return h('section.panel.seats', {'aria-label': 'Players'},
    h('table#scores', {},
      h('thead', {}, h('tr', {}, h('th', {title: 'the player, its corporation and its minions (golems, goblins, devils, zombies)'}, 'Player'),
        h('th.num', {title: 'favors in the score pile'}, 'Pile'), h('th.num', {title: 'guilty pleasures'}, 'GP'),
        h('th.num', {title: 'leaders controlled'}, 'Ldr'), g.chaos ? h('th.num', {title: 'chaos cards left to play'}, 'Ch') : null,
        h('th.num', {title: 'the score as you know it: your shareholder card is counted, the others are not until shown'}, 'Pts'))),
      h('tbody', {}, st.seats.map((s) => h('tr', {class: ['seat-' + s.seat, s.me ? 'me' : '', s.due ? 'due' : '', s.winner ? 'winner' : ''].filter(Boolean).join(' '), dataset: {seat: s.seat},
        title: `${s.corp_name}. Guilty pleasures: ${s.pleasures.map((p) => p.id).join(', ') || 'none'}. Leaders: ${s.leaders.join(', ') || 'none'}.` +
          (s.monarchs.length ? ` Monarchs: ${s.monarchs.join(', ')}.` : '') + (s.chaos_played.length ? ` Chaos played: ${s.chaos_played.join(', ')}.` : '') +
          (s.shareholders.length ? ` Shareholder: ${s.shareholders.join(', ')}.` : '')},
        h('td.name', {}, h('span.swatch', {}), s.name, s.me ? h('span.badge', {}, 'you') : null, s.first ? h('span.badge', {title: 'starting player'}, '1st') : null,
          h('div.corp', {}, s.corp_name),
          h('div.mins', {'aria-label': 'minions'}, ['golem', 'goblin', 'devil', 'zombie'].map((m) => h('span.count', {title: m + 's'}, minions([m]), s.minions[m]))),
          s.known ? knownCards(s.known) : null),
        h('td.num', {}, s.pile),
        h('td.num', {}, s.pleasures.length),
        h('td.num', {}, s.leaders.length),
        g.chaos ? h('td.num', {}, s.chaos_left) : null,
        h('td.num.score', {dataset: {value: s.score}}, s.score))))));
}

// knownCards is an open seat's secret cards: its player left, every node rebuilt its secret and
// knows them (the server sends them only for such a seat).
function knownCards(k) {
  const chaos = k.hand.map((c) => c.name + (c.discarded ? ' (discarded)' : c.played ? ' (played)' : ''));
  return h('div.known', {dataset: {known: 'open'}},
    h('span.known-mark', {}, t('mark.known')), ': ',
    [k.shareholders.length ? 'shareholder ' + k.shareholders.join(', ') : '', chaos.length ? 'chaos ' + chaos.join(', ') : ''].filter(Boolean).join('; '));
}

// ---- the results

const part = (k) => (s) => (s.score_parts ? s.score_parts[k] : '—');
export const resultColumns = [
  {title: 'Favors', cell: part('favors')},
  {title: 'Shareholder', cell: part('shareholder')},
  {title: 'Guilty pleasures', cell: part('pleasures')},
  {title: 'Minions (tie-break)', cell: (s) => s.minion_total},
  {title: 'Corporation', cell: (s) => s.corp_name},
];
export const compareSeats = (a, b) => b.score - a.score || b.minion_total - a.minion_total;

// ---- the decision

function renderSecrets(st) {
  const g = st.game;
  const parts = [];
  if (g.shareholders.length) parts.push(h('span.secret', {title: 'you score 1 per favor of this type in your opponents\' piles'}, 'Shareholder: ', h('strong', {}, g.shareholders.join(', '))));
  for (const c of g.hand) {
    const cls = 'chaos' + (c.discarded ? '.discarded' : '') + (c.played ? '.played' : '');
    parts.push(h('span.' + cls, {title: c.text ? `${c.text} (${c.when})` : ''}, h('strong', {}, c.name), c.effect ? ` · ${c.effect}` : '',
      c.discarded ? ' · discarded' : '', c.played ? ' · played' : ''));
  }
  if (g.chaos) {
    parts.push(h('label.check.ahead', {}, h('input#pass-ahead', {type: 'checkbox', checked: my.passAhead, dataset: {key: 'pass-ahead'},
      onchange: (e) => { setAhead(e.target.checked); const d = st.decision; if (answering(d) && my.passAhead && !my.timer) schedule(d, 'pass'); render(); }}),
    ' Pass every chaos answer ahead'));
  }
  return h('div.hand', {'aria-label': 'Your secret cards'}, h('span.label', {}, 'Yours alone'), parts.length ? parts : h('span.hint', {}, 'nothing'));
}

export function renderDecision(st) {
  const d = st.decision;
  const g = st.game;
  if (!d) {
    return h('section#decision.panel.idle', {dataset: {kind: 'none', id: 0}}, h('p.prompt', {}, g.next.text + '.'), renderSecrets(st));
  }
  const box = h('section#decision.panel.mine', {dataset: {kind: d.kind, id: d.id, busy: ui.sending || my.pending ? '1' : '0'}, 'aria-label': 'Your decision'},
    h('p.prompt', {}, d.prompt));
  if (d.tally) box.append(h('p.hint', {}, `Uncontrolled voters: ${d.tally.uncontrolled}. Yours: ${d.tally.mine}; the other players': ${d.tally.others}.`));
  let n = 0;
  const choice = (label, props, onclick) => {
    const k = keyFor(n++);
    return h('button.choice', Object.assign({type: 'button', onclick, disabled: ui.sending || !!my.pending}, props), k ? h('kbd', {}, k) : null, label);
  };
  const pick = (c) => choice(c.label, {class: c.group === 'pass' ? 'pass' : '', dataset: {key: 'choice:' + c.text, text: c.text, group: c.group}}, () => choose(d, c.text));
  if (my.pending) box.append(h('p.pending', {}, `Your answer (${my.pending}) goes when the table's delay is up.`));
  box.append(...[].concat(d.kind === 'action' ? actionChoices(st, d, choice, pick) : otherChoices(d, choice, pick)));
  box.append(renderSecrets(st));
  return box;
}

// otherChoices lists every choice; a guilty pleasure chosen on the board shows its picks, and
// many picks (a magic bonus's exchanges) are chosen by guilty pleasure first.
function otherChoices(d, choice, pick) {
  if (d.kind === 'pick' && my.pleasure) {
    return [back(), h('div.choices', {role: 'group', 'aria-label': my.pleasure}, d.choices.filter((c) => c.pleasure === my.pleasure).map(pick))];
  }
  if (d.kind === 'pick' && d.choices.length > 12) {
    const seen = new Set();
    return h('div.choices', {role: 'group', 'aria-label': 'Guilty pleasures'}, d.choices.map((c) => {
      if (!c.pleasure) return pick(c);
      if (seen.has(c.pleasure)) return null;
      seen.add(c.pleasure);
      return choice(`${c.pleasure}…`, {class: 'step', dataset: {key: 'p:' + c.pleasure, pleasure: c.pleasure}}, () => { my.pleasure = c.pleasure; render(); focusFirst('#decision button.choice'); });
    }));
  }
  return h('div.choices', {role: 'group'}, d.choices.map(pick));
}

function back() {
  return h('button.back', {type: 'button', dataset: {key: 'back'}, onclick: () => { onEscape(); }}, 'Back to every choice (Esc)');
}

// actionChoices: a favor, a leader or a chaos card chosen on the board or here, then its moves;
// calls at once.
function actionChoices(st, d, choice, pick) {
  const by = (f) => d.choices.filter(f);
  if (my.favor) return [back(), h('div.choices', {role: 'group', 'aria-label': my.favor}, by((c) => c.favor === my.favor && (c.group === 'take' || c.group === 'place')).map(pick))];
  if (my.leader) return [back(), h('div.choices', {role: 'group', 'aria-label': my.leader}, by((c) => c.group === 'influence' && c.leader === my.leader).map(pick))];
  if (my.card) return [back(), h('div.choices', {role: 'group', 'aria-label': my.card}, by((c) => c.group === 'chaos' && c.card === my.card).map(pick))];
  const uniq = (xs) => [...new Set(xs)];
  const favors = uniq(by((c) => c.group === 'take' || c.group === 'place').map((c) => c.favor));
  const leaders = uniq(by((c) => c.group === 'influence').map((c) => c.leader));
  const cards = uniq(by((c) => c.group === 'chaos').map((c) => c.card));
  const leaderName = (id) => {
    for (const part of [...st.game.senates, ...st.game.kingdoms]) for (const l of part.leaders) if (l.id === id) return l.name;
    return id;
  };
  const rows = [];
  if (favors.length) {
    rows.push(h('div.choices.row', {role: 'group', 'aria-label': 'Take a favor'}, h('span.label', {}, 'Take a favor'),
      favors.map((f) => choice(f + '…', {class: 'step', dataset: {key: 'f:' + f, favor: f}}, () => { my.favor = f; render(); focusFirst('#decision button.choice'); }))));
  }
  if (leaders.length) {
    rows.push(h('div.choices.row', {role: 'group', 'aria-label': 'Influence a leader'}, h('span.label', {}, 'Influence'),
      leaders.map((l) => choice(leaderName(l) + '…', {class: 'step', dataset: {key: 'l:' + l, leader: l}}, () => { my.leader = l; render(); focusFirst('#decision button.choice'); }))));
  }
  const calls = by((c) => c.group === 'call');
  if (calls.length) rows.push(h('div.choices.row', {role: 'group', 'aria-label': 'Call a vote'}, h('span.label', {}, 'Call a vote'), calls.map(pick)));
  if (cards.length) {
    rows.push(h('div.choices.row', {role: 'group', 'aria-label': 'Play a chaos card'}, h('span.label', {}, 'Chaos (not an action)'),
      cards.map((c) => {
        const all = by((x) => x.card === c);
        return all.length === 1 ? pick(all[0]) : choice(all[0].label.split(':')[0] + '…', {class: 'step', dataset: {key: 'c:' + c, card: c}}, () => { my.card = c; render(); focusFirst('#decision button.choice'); });
      })));
  }
  if (!rows.length) rows.push(h('p.hint', {}, 'You cannot afford anything: take a favor for its minions next time.'));
  return rows;
}

// ---- keys

export function onKey(e, st) {
  const d = st.decision;
  if (e.key.toLowerCase() === 'p' && d) {
    const pass = d.choices.find((c) => c.group === 'pass');
    if (pass) { choose(d, pass.text); return true; }
  }
  return false;
}

export function onEscape() {
  if (!my.favor && !my.leader && !my.card && !my.pleasure) return false;
  my.favor = my.leader = my.card = my.pleasure = null;
  render();
  focusFirst('#decision button.choice');
  return true;
}
