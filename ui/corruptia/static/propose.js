// Corruptia's proposal, step by step in the decision panel (and on the wall): a bill of the
// hand, a place where it touches the program, then a worker for each of its three vacancies.
// Only what can still make a legal proposal is offered; what cannot is said, with its reason;
// a pick stays when another is changed, as long as it still fits.

import {h, ui, render, focusFirst, t} from '../../kit.js';

// The picks of the proposal under way.
export const picks = {slot: null, cell: null, workers: [null, null, null]};

export function resetPicks() {
  picks.slot = null; picks.cell = null; picks.workers = [null, null, null];
}

// pickedBill is the bill choice picked in decision d, or null.
export function pickedBill(d) {
  if (!d || !d.bills || picks.slot === null) return null;
  return d.bills.find((b) => b.slot === picks.slot && b.cells.length) || null;
}

// pool is every worker that may fill a vacancy of a proposal at cell: the officials of the
// bills touching it, and the employees at hand, each with how many there are.
function pool(d, cell) {
  const out = [];
  for (const s of (d.sources || {})[cell] || []) out.push({worker: s.worker, income: s.income, count: s.count, text: s.text});
  for (const e of d.employees || []) out.push({worker: e.worker, income: 0, count: e.count, text: e.text});
  return out;
}

// completable says whether the vacancies of budget, filled as ws says (null: not yet), can all
// be filled from the pool: an official fills only a vacancy of its income, an employee any.
export function completable(budget, ws, workers) {
  const left = new Map(workers.map((w) => [w.worker, w.count]));
  const byID = new Map(workers.map((w) => [w.worker, w]));
  for (let k = 0; k < budget.length; k++) {
    const w = ws[k];
    if (w === null) continue;
    const p = byID.get(w);
    if (!p || !left.get(w) || (p.income && p.income !== budget[k])) return false;
    left.set(w, left.get(w) - 1);
  }
  const fill = (k) => {
    if (k === budget.length) return true;
    if (ws[k] !== null) return fill(k + 1);
    for (const p of workers) {
      if (!left.get(p.worker) || (p.income && p.income !== budget[k])) continue;
      left.set(p.worker, left.get(p.worker) - 1);
      const ok = fill(k + 1);
      left.set(p.worker, left.get(p.worker) + 1);
      if (ok) return true;
    }
    return false;
  };
  return fill(0);
}

// pickCell picks a place: the workers picked stay where they still fit there.
export function pickCell(d, c) {
  const b = pickedBill(d);
  picks.cell = c;
  if (!b) return;
  const ws = pool(d, c);
  for (let k = 0; k < 3; k++) {
    const keep = picks.workers.slice();
    if (keep[k] === null) continue;
    if (!completable(b.budget, keep, ws)) picks.workers[k] = null;
  }
}

// builder is the proposal's steps in the decision panel (each a list of buttons, one step at a
// time, so that the panel stays short): verb is 'propose' or 'amend'; choice
// makes a keyed choice button; send posts the move.
export function builder(st, d, choice, verb, send) {
  const out = [];
  const b = pickedBill(d);
  const money = (n) => t('money', {n});
  const needs = (x) => t('bill.needs', {list: x.budget.map(money).join(', ')});
  if (!b) {
    out.push(h('h3.step', {}, t('step.bill')));
    out.push(h('div.choices.hand-choices', {role: 'group', 'aria-label': t('step.bill')},
      d.bills.map((x) => choice([h('span.dept-dot.dept-' + x.dept, {}), h('strong', {}, x.title), ' ', h('span.sub', {}, `${x.dept_name} · ${needs(x)}`)],
        {class: 'hand-card' + (x.cells.length ? '' : ' unplayable'), dataset: {key: 'bill:' + x.bill, bill: x.bill}},
        () => { picks.slot = x.slot; picks.cell = null; picks.workers = [null, null, null]; render(); focusFirst('#decision .cell-choice'); },
        x.cells.length ? '' : x.unplayable || ' '))));
    return out;
  }
  out.push(h('p.picked', {}, t('picked.bill'), ' ', h('span.dept-dot.dept-' + b.dept, {}), h('strong', {}, b.title), ` (${b.dept_name} · ${needs(b)}) `,
    h('button.back', {type: 'button', dataset: {key: 'unpick'}, onclick: () => { resetPicks(); render(); focusFirst('#decision .hand-card'); }}, t('unpick'))));
  const places = (d.places || []).filter((p) => b.cells.includes(p.key));
  if (!picks.cell) {
    out.push(h('h3.step', {}, t('step.place')));
    out.push(h('div.choices.place-choices', {role: 'group', 'aria-label': t('step.place')},
      places.map((p) => choice(p.place, {class: 'cell-choice', dataset: {key: 'cellc:' + p.key, cell: p.key}},
        () => { pickCell(d, p.key); render(); focusFirst('#decision .worker-choice'); }))));
    if (Object.keys(b.why || {}).length) out.push(h('p.hint', {}, t('step.place.others')));
    return out;
  }
  const place = places.find((p) => p.key === picks.cell);
  out.push(h('p.picked', {}, t('picked.place'), ' ', h('strong', {}, place ? place.place : ''), ' ',
    h('button.back', {type: 'button', dataset: {key: 'unpick-cell'}, onclick: () => { picks.cell = null; render(); focusFirst('#decision .cell-choice'); }}, t('unpick.place'))));
  out.push(h('h3.step', {}, t('step.workers')));
  // The vacancies: each one filled says by whom (with a way to change it); the first one
  // empty lists the workers that can still make a proposal with the others chosen.
  const ws = pool(d, picks.cell);
  const next = picks.workers.findIndex((w) => !w);
  const rows = b.budget.map((income, k) => {
    const label = t('vacancy.label', {n: k + 1, money: money(income)});
    if (picks.workers[k]) {
      const w = ws.find((x) => x.worker === picks.workers[k]);
      return h('div.vacancy.filled', {}, h('span.label', {}, label + ':'), ' ', h('strong', {}, w ? w.text : picks.workers[k]), ' ',
        h('button.back', {type: 'button', dataset: {key: 'vacancy-change:' + k}, onclick: () => { picks.workers[k] = null; render(); focusFirst('#decision .worker-choice'); }}, t('vacancy.change')));
    }
    if (k !== next) return h('div.vacancy', {}, h('span.label', {}, label + ':'), ' ', h('span.hint', {}, t('vacancy.later')));
    const opts = ws.filter((w) => {
      if (w.income && w.income !== income) return false;
      const trial = picks.workers.slice();
      trial[k] = w.worker;
      return completable(b.budget, trial, ws);
    });
    return h('div.vacancy.choices', {role: 'group', 'aria-label': label}, h('span.label', {}, label + ':'),
      opts.map((w) => choice(w.text, {class: 'worker-choice', dataset: {key: `worker:${k}:${w.worker}`, vacancy: k, worker: w.worker, kind: w.income ? 'official' : 'employee', count: w.count}},
        () => { picks.workers[k] = w.worker; render(); focusFirst('#decision .worker-choice, #propose'); })));
  });
  out.push(h('div.vacancies', {}, rows));
  const left = picks.workers.filter((w) => !w).length;
  const why = ui.sending ? t('why.sending') : left ? t(left === 1 ? 'why.vacancies.one' : 'why.vacancies', {n: left}) : '';
  out.push(h('div.choices', {},
    h('button#propose.choice.go', {type: 'button', disabled: !!why, 'aria-describedby': why ? 'propose-why' : null, dataset: {key: 'propose'},
      onclick: () => send({kind: verb, bill: b.bill, at: picks.cell, workers: picks.workers.slice()})}, t(verb === 'amend' ? 'go.amend' : 'go.propose')),
    why ? h('span#propose-why.why', {}, why) : null));
  return out;
}
