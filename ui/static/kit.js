// The shell's helpers, shared by the page (app.js) and the games' boards (boards/GAME/board.js).
// A board reaches its seat through them (post, move) and keeps its settings with store and
// session: all of it goes through the page's one door to the seat, api.js.

import {request, store, session, staticText} from './api.js';

export {store, session};

export const $ = (sel, root = document) => root.querySelector(sel);

// h builds an element: h('button.choice', {dataset: {index: 3}, onclick}, 'text', child...).
// The spec is tag#id.class.class (id and classes optional).
export function h(spec, props = {}, ...kids) {
  const sp = parseSpec(spec);
  const el = document.createElement(sp.tag);
  if (sp.id) el.id = sp.id;
  if (sp.cls !== null) el.className = sp.cls;
  for (const k in props) {
    const v = props[k];
    if (v === undefined || v === null || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'class') el.className += (el.className ? ' ' : '') + v;
    else if (k.startsWith('on')) on(el, k.slice(2), v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  el.append(...nodes(kids, []));
  return el;
}

// nodes puts kids in out: arrays flattened, null, undefined and false left out.
function nodes(kids, out) {
  for (const k of kids) {
    if (k === null || k === undefined || k === false) continue;
    if (Array.isArray(k)) nodes(k, out);
    else out.push(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return out;
}

// parseSpec reads each spec once.
const specs = new Map();
function parseSpec(spec) {
  let sp = specs.get(spec);
  if (!sp) {
    const [head, ...classes] = spec.split('.');
    const [tag, id] = head.split('#');
    sp = {tag: tag || 'div', id, cls: classes.length ? classes.filter(Boolean).join(' ') : null};
    if (specs.size > 5000) specs.clear();
    specs.set(spec, sp);
  }
  return sp;
}

// An element's handlers (h's onclick, onchange...) are kept on it, by event, and one listener
// calls them: morph gives an element it keeps the handlers of the element drawn anew, which
// hold the latest state.
function dispatch(e) {
  const f = this.__on && this.__on[e.type];
  return f ? f.call(this, e) : undefined;
}

function on(el, type, f) {
  (el.__on || (el.__on = {}))[type] = f;
  listen(el, type);
}

function listen(el, type) {
  const l = el.__listens || (el.__listens = new Set());
  if (!l.has(type)) {
    l.add(type);
    el.addEventListener(type, dispatch);
  }
}

// morph makes parent's children those of kids (a render built anew), changing only what
// differs: a node of the same kind stays (its focus, scroll and accessibility tree) and takes
// the new one's attributes, text and handlers, its children morphed in turn; one of another
// tag, id or data-key, or a form control (its value may be being typed), is replaced. A page
// drawn whole at every state costs the browser only what changed.
export function morph(parent, kids) {
  let old = parent.firstChild;
  for (const nu of nodes(kids, [])) old = place(parent, old, nu);
  trim(old);
}

// place puts nu at old (null: the end), and returns the next child to compare.
function place(parent, old, nu) {
  if (!old) {
    parent.append(nu);
    return null;
  }
  if (old === nu) return old.nextSibling;
  if (nu.parentNode === parent) { // further on: moved here
    parent.insertBefore(nu, old);
    return old;
  }
  if (alike(old, nu)) {
    patch(old, nu);
    return old.nextSibling;
  }
  const next = old.nextSibling;
  parent.replaceChild(nu, old);
  return next;
}

function trim(old) {
  while (old) {
    const next = old.nextSibling;
    old.remove();
    old = next;
  }
}

const replaced = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'IMG', 'CANVAS', 'IFRAME']);

function alike(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return a.nodeType === Node.TEXT_NODE || a.nodeType === Node.COMMENT_NODE;
  return a.namespaceURI === b.namespaceURI && a.tagName === b.tagName && !replaced.has(a.tagName) &&
    a.id === b.id && a.getAttribute('data-key') === b.getAttribute('data-key');
}

function patch(old, nu) {
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== nu.nodeValue) old.nodeValue = nu.nodeValue;
    return;
  }
  // A second pass, for old's attributes that nu lacks, only when they differ.
  const na = nu.attributes, oa = old.attributes;
  let same = na.length === oa.length;
  for (const a of na) {
    if (old.getAttribute(a.name) === a.value) continue;
    same = false;
    // The page's policy (style-src 'self', ui/http.go) applies no style set as markup: a
    // style set through the CSSOM (Corruptia's wall places its bills so) is copied so too.
    if (a.name === 'style') old.style.cssText = nu.style.cssText;
    else old.setAttribute(a.name, a.value);
  }
  for (let i = same ? -1 : oa.length - 1; i >= 0; i--) {
    if (!nu.hasAttribute(oa[i].name)) old.removeAttribute(oa[i].name);
  }
  if (old.__on || nu.__on) {
    old.__on = nu.__on;
    for (const type in nu.__on) listen(old, type);
  }
  let at = old.firstChild;
  for (let kid = nu.firstChild, next; kid; kid = next) {
    next = kid.nextSibling;
    at = place(old, at, kid);
  }
  trim(at);
}

const svgNS = 'http://www.w3.org/2000/svg';

// art is a picture from an SVG sprite: art(spriteURL + '#da', 'art'), decorative
// (hidden from screen readers: what it shows is said in words next to it or in a label).
// A sprite is put in the page once (sprite below): until it is, the picture uses the file.
export function art(href, cls = 'art') {
  const svg = document.createElementNS(svgNS, 'svg');
  svg.setAttribute('class', cls);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const use = document.createElementNS(svgNS, 'use');
  const at = href.indexOf('#');
  const prefix = at > 0 ? sprite(href.slice(0, at)) : null;
  use.setAttribute('href', prefix ? '#' + prefix + href.slice(at + 1) : href);
  svg.append(use);
  return svg;
}

// sprite puts the sprite file in the page, hidden, its ids prefixed (sprite1-da), and returns
// the prefix once it is there (null before, or when it cannot be). A <use> of a file costs
// the browser a request each, and a document of its own whenever no <use> holds it: every state
// redraws the board's pictures (docs/PERFORMANCE.md, "The browser seat").
const sprites = new Map();
function sprite(file) {
  if (sprites.has(file)) return sprites.get(file);
  sprites.set(file, null);
  const prefix = `sprite${sprites.size}-`;
  staticText(file).then((text) => {
    if (text === null) return;
    const doc = new DOMParser().parseFromString(text.replace(/\b(id="|href="#)/g, '$1' + prefix), 'image/svg+xml');
    const root = doc.documentElement;
    if (root.namespaceURI !== svgNS || root.localName !== 'svg') return;
    const svg = document.importNode(root, true);
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    svg.setAttribute('width', '0');
    svg.setAttribute('height', '0');
    svg.style.position = 'absolute';
    document.body.append(svg);
    sprites.set(file, prefix);
  }).catch(() => {});
  return null;
}

// What the page holds between updates. A board keeps its own state in its module.
export const ui = {
  state: null,
  log: [],
  skew: 0,            // server clock minus ours, in ms
  decisionID: 0,      // the decision the focus was last moved for
  resultsFocused: false, // the results' first button was offered the focus (once a table)
  error: '',          // the last refused move or lobby request
  sending: false,
  connected: false,
  left: false,
  noKey: false,
  form: null,         // the lobby's form to create a table, as typed
  lang: 'en',         // the page's language
  fresh: true,        // the first state of this stream is being drawn (nothing new happened yet)
};

// hooks.render redraws the page (set by app.js).
export const hooks = {render: () => {}};

export function render() { hooks.render(); }

// words are the page's strings in its language: the board's, then the shell's (app.js loads
// them from lang/LANG.json and board/lang/LANG.json).
export const words = {shell: {}, board: {}, rules: null, names: {}};

// t is the text of key in the page's language, with its {arguments} filled in from args; a
// key that neither the board nor the shell knows is shown as it is.
export function t(key, args) {
  let s = words.board[key];
  if (s === undefined) s = words.shell[key];
  if (s === undefined) return key;
  if (args) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m));
  return s;
}

// has says whether the board or the shell has words for key.
export const has = (key) => key in words.board || key in words.shell;

// number writes n in the page's language (1,000 / 1.000 / 1 000).
export function number(n) {
  return Number(n).toLocaleString(ui.lang === 'en' ? 'en-US' : ui.lang);
}

// iso isolates a text the page puts inside a sentence (a table's name), as <bdi> does: FSI
// (U+2068) before it, PDI (U+2069) after, so that a right-to-left name neither reorders the
// sentence nor is reordered by it. The players' names and the chat's texts come from the
// server isolated already, each with its seat ("⁨ann⁩ (seat 2)").
export const iso = (s) => '\u2068' + s + '\u2069';

// shellQuote is s as one word of a POSIX shell command ('friday night', 'ann'\''s table').
export const shellQuote = (s) => "'" + String(s).replace(/'/g, "'\\''") + "'";

// chatClass is the classes of a chat line of the log (kind chat or chatme): its speaker's seat,
// for the seat's colour, and conflict when the speaker signed two messages with its number.
export function chatClass(l) {
  const d = l.data || {};
  return (d.seat >= 0 ? '.seat-' + d.seat : '') + (d.conflict ? '.conflict' : '');
}

// chatParts draws a chat line of the log from its data (ui.ChatData): the speaker's colour,
// name and seat, then what it said, each in its own <bdi>, as text; a message whose speaker had
// signed another with the same number says so, in words, with a mark.
export function chatParts(l) {
  const d = l.data;
  if (!d) return [l.text];
  const swatch = d.seat >= 0 ? h('span.swatch', {}) : null;
  if (d.conflict) return [swatch, h('strong.conflict-mark', {}, '!! '), l.text];
  return [swatch, h('b.speaker', {}, h('bdi', {}, d.name)), ': ', h('bdi.said', {}, d.text)];
}

export function seatName(st, seat) {
  const s = (st.seats || [])[seat];
  if (!s) return t('seat', {n: seat});
  return s.me ? t('name.you', {name: s.name}) : s.name;
}

// The keys that take the decision's choices, in order: digits, then letters in order (the
// page's own shortcuts are Shift and a letter: app.js).
const choiceKeys = '1234567890abcdefghijklmnopqrstuvwxyz';

// keyFor is the key of the i-th choice (0-based) of the decision panel, '' past the last key.
export const keyFor = (i) => choiceKeys[i] || '';

// kbdText turns "[Tab] moves" into text with <kbd> elements (for help written in words).
export function kbdText(s) {
  return s.split(/\[([^\]]+)\]/).map((part, i) => (i % 2 ? h('kbd', {}, part) : part));
}

export function focusFirst(sel) {
  const el = $(sel);
  if (el) el.focus();
}

// withLang adds the page's language to an API path.
export const withLang = (path) => path + (path.includes('?') ? '&' : '?') + 'lang=' + encodeURIComponent(ui.lang);

// post sends a JSON request to the seat; a refusal is kept in ui.error (shown in a banner) and
// thrown.
export async function post(path, body) {
  ui.sending = true;
  try {
    const r = await request('POST', withLang(path), body);
    const j = r.json || {error: t('error.status', {code: r.status})};
    if (r.status < 200 || r.status > 299) throw new Error(j.error || t('error.status', {code: r.status}));
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

// move answers the decision due with the board's move m; it resolves when the node took it.
export function move(m) {
  const st = ui.state;
  if (!st || !st.decision || ui.sending) return Promise.resolve(false);
  return post('/api/move', Object.assign({id: st.decision.id}, m)).then(() => true, () => false);
}

// ---- what every board's controls and numbers say, for a newcomer

let whyN = 0;

// why disables the control el and says why, beside it: it returns el with the reason after
// it, a visible line that is also el's accessible description (aria-describedby), so that a
// control is never greyed out without a word. An empty reason leaves el as it is.
export function why(el, reason) {
  if (!reason) return el;
  el.disabled = true;
  // (An id of the control's key where it has one: a redraw keeps it, and morph the reason.)
  const id = 'why-' + (el.dataset && el.dataset.key ? el.dataset.key.replace(/[^\w-]/g, '_') : String(++whyN));
  el.setAttribute('aria-describedby', id);
  return h('span.with-why', {}, el, h('span.why', {id}, reason));
}

// The explanations open now, by key (they stay open across redraws).
const tipsOpen = new Set();

// tip is content (a number, a short word) that explains itself on a tap, a click or Enter, not
// on hover alone (a phone has none): a button showing content, whose accessible name is label
// (what content is, in words), that opens text under it; a second tap, Escape or a tap
// elsewhere closes it. key names the explanation across redraws (unique on the page).
export function tip(content, label, text, key) {
  const open = tipsOpen.has(key);
  const id = 'tip-' + String(key).replace(/[^\w-]/g, '_');
  // (Its name is content, then label for a screen reader: the visible text is in the name;
  // no label, content alone.)
  const btn = h('button.tip-button', {type: 'button', 'aria-expanded': String(open), 'aria-controls': id, title: text,
    dataset: {key: 'tip:' + key}, onclick: (e) => {
      e.stopPropagation();
      const was = tipsOpen.has(key);
      tipsOpen.clear();
      if (!was) tipsOpen.add(key);
      hooks.render();
    }}, content, label ? h('span.sr-only', {}, ' (' + label + ')') : null);
  return h('span.tip', {}, btn, h('span.tip-text', {id, role: 'note', hidden: !open}, text));
}

// closeTips closes every explanation open; true when one was.
export function closeTips() {
  if (!tipsOpen.size) return false;
  tipsOpen.clear();
  hooks.render();
  return true;
}
