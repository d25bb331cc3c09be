// Explanations on tap: a number or a piece of the board is a button; pressing it (a tap, a
// click, Enter) opens a short explanation under it, pressing it again or Esc closes it. Not
// hover: a phone has none. One explanation is open at a time, kept by its key across redraws.

import {h, render} from '../../kit.js';

let open = '';

// tip is a button showing content that explains itself with text (a string or elements) when
// pressed; key names it across redraws. props add to the button's.
export function tip(key, content, text, props = {}) {
  const id = 'tip-' + key.replace(/[^A-Za-z0-9_-]/g, '_');
  const shown = open === key;
  const btn = h('button.tip', Object.assign({type: 'button', 'aria-expanded': String(shown), 'aria-controls': shown ? id : null,
    dataset: {key: 'tip:' + key, tip: key}, onclick: (e) => { e.stopPropagation(); open = shown ? '' : key; render(); }}, props), content);
  if (!shown) return btn;
  return h('span.tip-wrap', {}, btn, h('span.tip-pop', {id, role: 'note'}, text));
}

// closeTip closes the open explanation; true if one was open.
export function closeTip() {
  if (!open) return false;
  open = '';
  render();
  return true;
}
