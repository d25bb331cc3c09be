// Corrupted Kingdoms' board: the senates and kingdoms with their leaders and bills, the market,
// the guilty pleasures, the vote under way, the players' panel and the decision's choices, for
// the shell's page (../app.js says what a board exports). It draws the State's game, seats and
// decision, which the server builds from the person's view only. Every choice the decision
// lists carries its move in the typed syntax; the board posts that text and nothing else.

import {h, ui, render, seatName, move, focusFirst, keyFor, t, session, tip} from '../../kit.js';

export const title = 'Corrupted Kingdoms';
export const setupText = 'The players draw their corporations and the starting player together, build and shuffle the favor, guilty pleasure, shareholder and chaos decks together, and deal the secret cards. No one can see a deck.';
export const setup = () => t('setup');

export const formatScore = (n) => t(n === 1 ? 'pts.one' : 'pts', {n});

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


export function helpItems() {
  return [
    h('li', {}, t('help.click')),
    h('li', {}, h('kbd', {}, 'Esc'), ': ', t('help.esc'), '; ', h('kbd', {}, 'P'), ': ', t('help.pass')),
  ];
}

const answering = (d) => d && (d.kind === 'steal' || d.kind === 'answer');

// onState forgets the choices of a decision that is gone, and sends a pass set ahead when the
// table's delay is up.
export function onState(prev, st) {
  columns();
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
    choices.map((c) => h('option', {value: c.id, selected: c.id === f.rules}, c.text))))];
}

export const describeSettings = (t) => ` · ${t.rules_text || t.rules}`;
export const joinFlags = (t) => ` --game kingdoms${t.rules && t.rules !== 'advanced' ? ' --rules ' + t.rules : ''}`;

// ---- the header

export function header(st) {
  const g = st.game;
  const parts = [h('span', {}, g.phase === 'setup' ? t('header.setup') : t('header.round', {n: g.round})), h('span.rule', {}, g.next.text.replace(/^[^:]*\d+ ?: /, ''))];
  if (g.ending) parts.push(h('span.ending', {}, t('header.ending', {why: g.ending})));
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
  return h('section#board', {'aria-label': t('board.label'), tabindex: -1},
    renderVote(st),
    st.mode === 'over' ? renderBreakdown(st) : null,
    h('div.realm', {}, g.senates.map((s) => renderSenate(st, s, act)), g.kingdoms.map((k) => renderKingdom(st, k, act))),
    h('div.tableau', {}, renderMarket(st, act), renderDisplay(st, act), renderSupply(g)));
}

// minions are minion chips: a short name each (not told apart by case or colour alone), the
// whole name for assistive technology and on hover.
function minions(list) {
  return h('span.minions', {}, list.map((m) => h('span.minion.' + m, {title: t('minion.' + m)},
    h('span', {'aria-hidden': 'true'}, t('minion.short.' + m)), h('span.sr-only', {}, t('minion.' + m)))));
}

const mname = (m) => t('minion.' + m);
const tname = (x) => t('type.' + x);
const hname = (x) => t('heart.' + x);
const favorName = (id) => { const [ty, n] = String(id).split('-'); return n ? tname(ty) + '-' + n : id; };
const pleasureName = (id) => { const [he, ty] = String(id).split('/'); return ty ? hname(he) + '/' + tname(ty) : id; };

function controller(st, seat) {
  if (seat < 0) return h('span.ctl.free', {}, t('uncontrolled'));
  return h('span.ctl.seat-' + seat, {}, h('span.swatch', {}), seatName(st, seat));
}

function renderLeader(st, l, act) {
  const body = [
    h('span.lname', {}, l.name),
    h('span.cost', {title: t('leader.cost', {a: mname(l.cost[0]), b: mname(l.cost[1])})}, minions(l.cost)),
    h('span.heart.h-' + l.heart, {title: t('leader.heart', {heart: hname(l.heart)})}, hname(l.heart)),
    l.prefers ? h('span.ftype.t-' + l.prefers, {title: t('leader.prefers', {type: tname(l.prefers)})}, tname(l.prefers)) : null,
    l.discount ? h('span.discount', {title: t('leader.discount', {n: l.discount})}, `−${l.discount}`) : null,
    controller(st, l.controller)];
  const cls = 'leader' + (l.controller >= 0 ? '.seat-' + l.controller + '.owned' : '') + (my.leader === l.id ? '.chosen' : '');
  const label = t('leader.label', {cost: mname(l.cost[0]) + ', ' + mname(l.cost[1]), heart: hname(l.heart)}) +
    (l.prefers ? '; ' + t('leader.prefers', {type: tname(l.prefers)}) : '') + (l.discount ? '; ' + t('leader.discount', {n: l.discount}) : '');
  if (act.leaders.has(l.id)) {
    // (The button's name is its visible text, then what it does and costs, for a screen reader.)
    return h('button.' + cls + '.target', {type: 'button', dataset: {key: 'leader:' + l.id, leader: l.id},
      onclick: () => { my.leader = l.id; my.favor = my.card = null; render(); focusFirst('#decision button.choice'); }}, body, h('span.sr-only', {}, ' — ' + t('leader.influence') + '; ' + label));
  }
  return h('div.' + cls, {dataset: {leader: l.id}}, body, h('span.sr-only', {}, ' — ' + label));
}

function renderSenate(st, s, act) {
  return h('section.board-part.senate', {dataset: {senate: s.id}, 'aria-label': s.name},
    h('h2', {}, s.name), h('div.leaders', {}, s.leaders.map((l) => renderLeader(st, l, act))));
}

function renderKingdom(st, k, act) {
  return h('section.board-part.kingdom', {dataset: {kingdom: k.id}, 'aria-label': k.name},
    h('h2', {}, k.name),
    h('div.monarch', {}, h('span.lname', {}, k.monarch), h('span.ftype.t-' + k.prefers, {title: t('leader.prefers', {type: tname(k.prefers)})}, tname(k.prefers)), controller(st, k.allegiant)),
    h('div.leaders', {}, k.leaders.map((l) => renderLeader(st, l, act))),
    h('div.bills', {}, k.bills.map((b) => renderBill(st, b, act))));
}

function favorChip(f, extra) {
  return [h('span.fid', {}, favorName(f.id || f.favor)), minions(f.minions), extra || null];
}

function renderBill(st, b, act) {
  const here = act.bills.get(b.id) || [];
  const buttons = here.map((c) => h('button.place-here', {type: 'button', dataset: {key: 'bill:' + c.text, text: c.text}, onclick: () => choose(st.decision, c.text)},
    c.group === 'call' ? t('bill.call') : t('bill.place', {favor: favorName(c.favor)})));
  return h('div.bill' + (b.voting ? '.voting' : '') + (b.favors.length >= 4 ? '.full' : ''), {dataset: {bill: b.id}},
    h('div.bill-head', {}, h('span.bname', {}, b.name), b.type ? h('span.ftype.t-' + b.type, {title: b.bonus || ''}, t('bill.type', {type: tname(b.type)})) : h('span.hint', {}, t('empty'))),
    h('ol.bill-favors', {}, b.favors.map((f) => h('li.bfavor.t-' + f.type + '.seat-' + f.seat, {title: t('bill.marker', {favor: favorName(f.favor), who: seatName(st, f.seat)})},
      h('span.swatch', {}), favorChip(f)))),
    b.bonus && st.game.bonuses ? h('p.bonus', {}, b.bonus) : null,
    buttons);
}

function renderMarket(st, act) {
  const g = st.game;
  return h('section.board-part.market', {'aria-label': t('market.title')},
    h('h2', {}, t('market.title')),
    h('div.row', {}, g.market.map((f) => {
      if (!f) return h('span.favor.empty', {}, t('empty'));
      const body = favorChip(f);
      if (act.favors.has(f.id)) {
        return h('button.favor.target.t-' + f.type + (my.favor === f.id ? '.chosen' : ''), {type: 'button', dataset: {key: 'favor:' + f.id, favor: f.id},
          onclick: () => { my.favor = f.id; my.leader = my.card = null; render(); focusFirst('#decision button.choice'); }}, body,
          h('span.sr-only', {}, ' — ' + t('market.take')));
      }
      return h('div.favor.t-' + f.type, {dataset: {favor: f.id}}, body);
    })),
    h('p.hint', {}, tip(t('market.deck', {n: g.favor_deck, m: g.favor_discard}), t('market.deck', {n: g.favor_deck, m: g.favor_discard}), t('market.deck.tip'), 'favor-deck')));
}

function renderDisplay(st, act) {
  const g = st.game;
  return h('section.board-part.display', {'aria-label': t('display.label')},
    h('h2', {}, t('display.title')),
    h('div.row', {}, g.display.map((p) => {
      if (!p) return h('span.pleasure.empty', {}, t('empty'));
      const body = [h('span.heart.h-' + p.heart, {}, hname(p.heart)), h('span.ftype.t-' + p.type, {}, tname(p.type))];
      if (act.pleasures.has(p.id)) {
        return h('button.pleasure.target' + (my.pleasure === p.id ? '.chosen' : ''), {type: 'button', dataset: {key: 'pleasure:' + p.id, pleasure: p.id},
          onclick: () => { my.pleasure = p.id; render(); focusFirst('#decision button.choice'); }}, body);
      }
      return h('div.pleasure', {dataset: {pleasure: p.id}}, body);
    })),
    h('p.hint', {}, tip(t('display.deck', {n: g.pleasure_deck}), t('display.deck', {n: g.pleasure_deck}), t('display.deck.tip'), 'pleasure-deck')));
}

function renderSupply(g) {
  const s = g.supply;
  return h('section.board-part.supply', {'aria-label': t('supply.label')}, h('h2', {}, t('supply.title')),
    h('p', {}, ['golem', 'goblin', 'devil', 'zombie'].map((m) => h('span.count', {}, tip([minions([m]), ' ', s[m]], t('supply.count', {n: s[m], minion: mname(m)}), t('supply.tip'), 'supply-' + m)))));
}

function renderVote(st) {
  const v = st.game.vote;
  if (!v) return null;
  const chips = v.seats.map((s) => {
    const cast = v.revealed ? (v.votes[s] === 1 ? 'yes' : 'no') : 'sealed';
    return h('span.vote.seat-' + s + '.' + cast, {}, h('span.swatch', {}), seatName(st, s), ': ', t('vote.cast.' + cast));
  });
  return h('section.vote-banner' + (v.revealed ? '.revealed' : ''), {'aria-live': 'polite', dataset: {bill: v.bill}},
    h('strong', {}, v.text + '.'), ' ', chips,
    v.revealed && (v.extra_yes || v.extra_no) ? h('span.extra', {}, ' ' + t('vote.extra', {yes: v.extra_yes, no: v.extra_no})) : null);
}

// ---- the players

// head is a column head whose short name is explained on a tap (not on hover alone).
const head = (key) => h('th.num', {scope: 'col'}, tip(t('col.' + key), t('col.' + key + '.name'), t('col.' + key + '.tip'), 'col-' + key));

export function renderSeats(st) {
  const g = st.game;
  return h('section.panel.seats', {'aria-label': t('players.label')},
    h('table#scores', {},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('col.player')),
        head('pile'), head('gp'), head('ldr'), g.chaos ? head('ch') : null, head('pts'))),
      h('tbody', {}, st.seats.map((s) => h('tr', {class: ['seat-' + s.seat, s.me ? 'me' : '', s.due ? 'due' : '', s.winner ? 'winner' : ''].filter(Boolean).join(' '), dataset: {seat: s.seat},
        title: seatTitle(s)},
        h('td.name', {}, h('span.who', {}, h('span.swatch', {}), s.name), s.me ? [' ', h('span.badge', {}, t('badge.you'))] : null, s.first ? [' ', h('span.badge', {title: t('badge.first.tip')}, t('badge.first'))] : null,
          h('div.corp', {}, s.corp_name),
          h('div.mins', {'aria-label': t('minions.label')}, ['golem', 'goblin', 'devil', 'zombie'].map((m) => h('span.count', {title: mname(m)}, minions([m]), s.minions[m]))),
          s.known ? knownCards(s.known) : null),
        h('td.num', {}, s.pile),
        h('td.num', {}, s.pleasures.length),
        h('td.num', {}, s.leaders.length),
        g.chaos ? h('td.num', {}, s.chaos_left) : null,
        h('td.num.score', {dataset: {value: s.score}}, s.score))))));
}

function seatTitle(s) {
  const list = (xs) => xs.join(', ') || t('none');
  return [s.corp_name, t('seat.pleasures', {list: list(s.pleasures.map((p) => pleasureName(p.id)))}), t('seat.leaders', {list: list(s.leaders)}),
    s.monarchs.length ? t('seat.monarchs', {list: list(s.monarchs)}) : '', s.chaos_played.length ? t('seat.chaos', {list: list(s.chaos_played)}) : '',
    s.shareholders.length ? t('seat.shareholder', {list: list(s.shareholders.map(tname))}) : ''].filter(Boolean).join('. ') + '.';
}

// knownCards is an open seat's secret cards: its player left, every node rebuilt its secret and
// knows them (the server sends them only for such a seat).
function knownCards(k) {
  const chaos = k.hand.map((c) => c.name + (c.discarded ? ` (${t('chaos.discarded')})` : c.played ? ` (${t('chaos.played')})` : ''));
  return h('div.known', {dataset: {known: 'open'}},
    h('span.known-mark', {}, t('mark.known')), ': ',
    [k.shareholders.length ? t('known.shareholders', {types: k.shareholders.map(tname).join(', ')}) : '', chaos.length ? t('known.chaos', {cards: chaos.join(', ')}) : ''].filter(Boolean).join('; '));
}

// ---- the results

const part = (k) => (s) => (s.score_parts ? s.score_parts[k] : '—');
// resultColumns are the results' columns in the page's language (made again at each state:
// the shell reads them as they are).
export let resultColumns = [];
function columns() {
  resultColumns = [
    {title: t('result.favors'), cell: part('favors')},
    {title: t('result.shareholder'), cell: part('shareholder')},
    {title: t('result.pleasures'), cell: part('pleasures')},
    {title: t('result.minions'), cell: (s) => s.minion_total},
    {title: t('result.corp'), cell: (s) => s.corp_name},
  ];
}
columns();
export const compareSeats = (a, b) => b.score - a.score || b.minion_total - a.minion_total;

// renderBreakdown says, under the results, how each score was counted, in the rule sheet's
// terms.
function renderBreakdown(st) {
  return h('section.breakdown.panel', {'aria-labelledby': 'breakdown-title'},
    h('h2#breakdown-title', {}, t('breakdown.title')),
    h('p.hint', {}, t('breakdown.rules')),
    h('ul', {}, st.seats.filter((s) => s.score_parts).map((s) => h('li', {},
      h('strong', {}, seatName(st, s.seat)), ': ', t('breakdown.line', {favors: s.score_parts.favors, shareholder: s.score_parts.shareholder,
        types: s.shareholders.map(tname).join(', ') || t('none'), pleasures: s.score_parts.pleasures, n: s.pleasures.length, total: s.score, minions: s.minion_total})))));
}

// ---- the decision

function renderSecrets(st) {
  const g = st.game;
  const parts = [];
  if (g.shareholders.length) {
    const types = g.shareholders.map(tname).join(', ');
    parts.push(h('span.secret', {}, tip([t('secret.shareholder'), ' ', h('strong', {}, types)], t('secret.shareholder') + ' ' + types, t('secret.shareholder.tip'), 'shareholder')));
  }
  for (const c of g.hand) {
    const cls = 'chaos' + (c.discarded ? '.discarded' : '') + (c.played ? '.played' : '');
    const label = [h('strong', {}, c.name), c.effect ? ` · ${c.effect}` : '', c.discarded ? ` · ${t('chaos.discarded')}` : '', c.played ? ` · ${t('chaos.played')}` : ''];
    parts.push(h('span.' + cls, {}, c.text ? tip(label, c.name, `${c.text} (${c.when})`, 'chaos-' + c.pos) : label));
  }
  return h('div.hand', {'aria-label': t('secret.label')}, h('span.label', {}, t('secret.title')), parts.length ? parts : h('span.hint', {}, t('secret.nothing')));
}

// renderAhead is the setting "pass every chaos answer ahead": a setting of the person's, apart
// from the decision's choices, with what it does.
function renderAhead(st) {
  if (!st.game.chaos) return null;
  return h('div.ahead-setting', {}, h('label.check.ahead', {}, h('input#pass-ahead', {type: 'checkbox', checked: my.passAhead, dataset: {key: 'pass-ahead'}, 'aria-describedby': 'ahead-hint',
    onchange: (e) => { setAhead(e.target.checked); const d = st.decision; if (answering(d) && my.passAhead && !my.timer) schedule(d, 'pass'); render(); }}),
  ' ', t('ahead.label')), ' ', h('span#ahead-hint.hint', {}, t('ahead.hint')));
}

export function renderDecision(st) {
  const d = st.decision;
  const g = st.game;
  if (!d) {
    return h('section#decision.panel.idle', {dataset: {kind: 'none', id: 0}}, h('p.prompt', {}, g.next.text + '.'), renderSecrets(st), renderAhead(st));
  }
  const box = h('section#decision.panel.mine', {dataset: {kind: d.kind, id: d.id, busy: ui.sending || my.pending ? '1' : '0'}},
    h('p.prompt', {}, d.prompt));
  if (d.why) box.append(h('p.hint.why-rule', {}, d.why));
  if (d.tally) box.append(h('p.hint', {}, d.tally.text));
  let n = 0;
  const choice = (label, props, onclick) => {
    const k = keyFor(n++);
    return h('button.choice', Object.assign({type: 'button', onclick}, props), k ? h('kbd', {}, k) : null, label);
  };
  const pick = (c) => choice(c.label, {class: c.group === 'pass' ? 'pass' : '', dataset: {key: 'choice:' + c.text, text: c.text, group: c.group}}, () => choose(d, c.text));
  if (my.pending) {
    // The answer is chosen and waits for the table's delay: no other choice is offered.
    box.append(h('p.pending', {}, t('pending', {n: Math.round((d.answer_delay_ms || 0) / 1000)})));
  } else {
    box.append(...[].concat(d.kind === 'action' ? actionChoices(st, d, choice, pick) : otherChoices(d, choice, pick)));
  }
  box.append(renderSecrets(st), renderAhead(st));
  return box;
}

// otherChoices lists every choice; a guilty pleasure chosen on the board shows its picks, and
// many picks (a magic bonus's exchanges) are chosen by guilty pleasure first.
function otherChoices(d, choice, pick) {
  if (d.kind === 'pick' && my.pleasure) {
    return [back(), h('div.choices', {role: 'group', 'aria-label': pleasureName(my.pleasure)}, d.choices.filter((c) => c.pleasure === my.pleasure).map(pick))];
  }
  if (d.kind === 'pick' && d.choices.length > 12) {
    const seen = new Set();
    return h('div.choices', {role: 'group', 'aria-label': t('display.title')}, d.choices.map((c) => {
      if (!c.pleasure) return pick(c);
      if (seen.has(c.pleasure)) return null;
      seen.add(c.pleasure);
      return choice(t('step.pleasure', {pleasure: pleasureName(c.pleasure)}), {class: 'step', dataset: {key: 'p:' + c.pleasure, pleasure: c.pleasure}}, () => { my.pleasure = c.pleasure; render(); focusFirst('#decision button.choice'); });
    }));
  }
  return h('div.choices', {role: 'group'}, d.choices.map(pick));
}

function back() {
  return h('button.back', {type: 'button', dataset: {key: 'back'}, onclick: () => { onEscape(); }}, t('back'));
}

// actionChoices: a favor, a leader or a chaos card chosen on the board or here, then its moves;
// calls at once. A choice that opens more choices says so.
function actionChoices(st, d, choice, pick) {
  const by = (f) => d.choices.filter(f);
  if (my.favor) return [back(), h('div.choices', {role: 'group', 'aria-label': favorName(my.favor)}, by((c) => c.favor === my.favor && (c.group === 'take' || c.group === 'place')).map(pick))];
  if (my.leader) return [back(), h('div.choices', {role: 'group', 'aria-label': leaderName(st, my.leader)}, by((c) => c.group === 'influence' && c.leader === my.leader).map(pick))];
  if (my.card) return [back(), h('div.choices', {role: 'group', 'aria-label': my.card}, by((c) => c.group === 'chaos' && c.card === my.card).map(pick))];
  const uniq = (xs) => [...new Set(xs)];
  const favors = uniq(by((c) => c.group === 'take' || c.group === 'place').map((c) => c.favor));
  const leaders = uniq(by((c) => c.group === 'influence').map((c) => c.leader));
  const cards = uniq(by((c) => c.group === 'chaos').map((c) => c.card));
  const rows = [];
  if (favors.length) {
    rows.push(h('div.choices.row', {role: 'group', 'aria-label': t('group.favor')}, h('span.label', {}, t('group.favor')),
      favors.map((f) => choice(t('step.favor', {favor: favorName(f)}), {class: 'step', dataset: {key: 'f:' + f, favor: f}}, () => { my.favor = f; render(); focusFirst('#decision button.choice'); }))));
  }
  if (leaders.length) {
    rows.push(h('div.choices.row', {role: 'group', 'aria-label': t('group.influence')}, h('span.label', {}, t('group.influence')),
      leaders.map((l) => choice(t('step.leader', {leader: leaderName(st, l)}), {class: 'step', dataset: {key: 'l:' + l, leader: l}}, () => { my.leader = l; render(); focusFirst('#decision button.choice'); }))));
  }
  const calls = by((c) => c.group === 'call');
  if (calls.length) rows.push(h('div.choices.row', {role: 'group', 'aria-label': t('group.call')}, h('span.label', {}, t('group.call')), calls.map(pick)));
  if (cards.length) {
    rows.push(h('div.choices.row', {role: 'group', 'aria-label': t('group.chaos')}, h('span.label', {}, t('group.chaos')),
      cards.map((c) => {
        const all = by((x) => x.card === c);
        return all.length === 1 ? pick(all[0]) : choice(t('step.chaos', {card: all[0].label.split(':')[0]}), {class: 'step', dataset: {key: 'c:' + c, card: c}}, () => { my.card = c; render(); focusFirst('#decision button.choice'); });
      })));
  }
  if (!rows.length) rows.push(h('p.hint', {}, t('nothing.afford')));
  return rows;
}

function leaderName(st, id) {
  for (const part of [...st.game.senates, ...st.game.kingdoms]) for (const l of part.leaders) if (l.id === id) return l.name;
  return id;
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

// ---- the rules panel's pictures

// rulesExtra opens the rules panel with the game's pieces as the board draws them, from the
// game's own data: the minions, the favor types, the hearts and, at a table, one of its
// leaders.
export function rulesExtra() {
  const g = ui.state && ui.state.game && ui.state.game.senates ? ui.state.game : null;
  const sample = g ? (g.kingdoms[0] || g.senates[0]).leaders[0] : null;
  const row = (text, kids) => h('div.glossary-row', {}, h('p', {}, text), h('div.row', {}, kids));
  return h('section.rule.glossary', {},
    h('h3', {}, t('glossary.title')),
    row(t('glossary.minions'), ['golem', 'goblin', 'devil', 'zombie'].map((m) => h('span.count', {}, minions([m]), ' ', mname(m)))),
    row(t('glossary.types'), ['freedom', 'defense', 'magic', 'environment', 'industry'].map((x) => h('span.ftype.t-' + x, {}, tname(x)))),
    row(t('glossary.hearts'), ['gold', 'feasts', 'revels', 'potions', 'gossip'].map((x) => h('span.heart.h-' + x, {}, hname(x)))),
    sample ? row(t('glossary.leader'), [h('div.leader', {}, h('span.lname', {}, t('leader.' + sample.id)), h('span.cost', {}, minions(sample.cost)),
      h('span.heart.h-' + sample.heart, {}, hname(sample.heart)), sample.prefers ? h('span.ftype.t-' + sample.prefers, {}, tname(sample.prefers)) : null,
      controller(ui.state, sample.controller))]) : null);
}
