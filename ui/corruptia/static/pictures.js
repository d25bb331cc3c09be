// The rules panel's pictures: a bill, a starting program with a proposal, a department's
// value, the tokens, employees and blackmail cards, drawn with the board's own shapes from our
// own data (the bills below are data/bills.csv's; a Go test holds them to it). The rule sheet
// is text only.

import {h, t} from '../../kit.js';

// Bills of data/bills.csv: department, its officials' income, its budget.
export const samples = {
  cul01: {dept: 'culture', income: 1, budget: [1, 1, 2]},
  cul02: {dept: 'culture', income: 2, budget: [1, 1, 3]},
  def01: {dept: 'defence', income: 2, budget: [1, 1, 2]},
  eco01: {dept: 'economy', income: 3, budget: [1, 1, 2]},
  edu05: {dept: 'education', income: 2, budget: [1, 3, 3]},
};

const money = (n) => t('money', {n});

// billFace is a bill as a card: its title, department and budget (the three vacancies a
// proposal fills), and the workers on it.
export function billFace(id, workers) {
  const s = samples[id];
  return h('div.bill.picture.dept-' + s.dept, {},
    h('span.bill-title', {}, t('bill.' + id)),
    h('span.sub', {}, t('dept.' + s.dept)),
    workers ? h('span.bill-workers', {}, workers) : h('span.vacancies-pic', {}, s.budget.map((n) => h('span.vac', {}, money(n)))));
}

const officials = (n, income) => h('span.off.inc-' + income, {}, t('bill.officials.short', {n, money: money(income)}));

// placed is a bill of a picture's wall at cell at, its top row being top.
function placed(id, at, workers, top = 0) {
  const el = billFace(id, workers);
  el.style.gridColumn = `${at[1] + 1} / span 2`;
  el.style.gridRow = String(at[0] - top + 1);
  return el;
}

export function rulesPictures() {
  const wall = h('div.wall.picture-wall', {'aria-hidden': 'true'},
    placed('cul01', [0, 0], officials(6, 1), -1),
    placed('def01', [0, 2], officials(6, 2), -1),
    placed('eco01', [0, 4], officials(4, 3), -1),
    (() => {
      const p = placed('edu05', [-1, 3], [h('span.off', {}, t('pic.proposed.workers'))], -1);
      p.classList.add('proposed');
      return p;
    })());
  wall.style.gridTemplateColumns = 'repeat(6, minmax(0, 1fr))';
  const block = h('div.wall.picture-wall', {'aria-hidden': 'true'},
    placed('cul01', [0, 0], officials(2, 1)),
    placed('cul02', [0, 2], [officials(1, 3)]));
  block.style.gridTemplateColumns = 'repeat(4, minmax(0, 1fr))';
  const figure = (pic, caption) => h('figure.rule-pic', {}, pic, h('figcaption', {}, caption));
  return h('section.rule.pictures', {}, h('h3', {}, t('pic.title')),
    figure(h('div.pic-row', {'aria-hidden': 'true'}, billFace('edu05')), t('pic.bill', {title: t('bill.edu05'), list: samples.edu05.budget.map(money).join(', ')})),
    figure(wall, t('pic.wall', {a: t('bill.cul01'), b: t('bill.def01'), c: t('bill.eco01'), p: t('bill.edu05')})),
    figure(block, t('pic.value', {a: t('bill.cul01'), b: t('bill.cul02')})),
    figure(h('div.pic-row', {'aria-hidden': 'true'},
      h('span.token-pic', {}, '★'), h('span.emp.seat-0', {}), h('span.emp.seat-1', {}),
      h('div.blackmail-pic', {}, h('b', {}, t('bm.1.1')), h('span.sub', {}, t('party.1')))), t('pic.pieces', {card: t('bm.1.1'), party: t('party.1')})));
}
