// The shell's helpers, shared by the page (app.js) and the game's board (board/board.js).

export const $ = (sel, root = document) => root.querySelector(sel);

// h builds an element: h('button.choice', {dataset: {index: 3}, onclick}, 'text', child...).
// The spec is tag#id.class.class (id and classes optional).
export function h(spec, props = {}, ...kids) {
  const [head, ...classes] = spec.split('.');
  const [tag, id] = head.split('#');
  const el = document.createElement(tag || 'div');
  if (id) el.id = id;
  if (classes.length) el.className = classes.filter(Boolean).join(' ');
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'class') el.className += (el.className ? ' ' : '') + v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

// What the page holds between updates. A board keeps its own state in its module.
export const ui = {
  state: null,
  log: [],
  skew: 0,            // server clock minus ours, in ms
  decisionID: 0,      // the decision the focus was last moved for
  error: '',          // the last refused move or lobby request
  sending: false,
  connected: false,
  left: false,
  noKey: false,
  form: null,         // the lobby's form to create a table, as typed
};

// hooks.render redraws the page (set by app.js).
export const hooks = {render: () => {}};

export function render() { hooks.render(); }

export function seatName(st, seat) {
  const s = (st.seats || [])[seat];
  if (!s) return 'seat ' + seat;
  return s.me ? s.name + ' (you)' : s.name;
}

export function focusFirst(sel) {
  const el = $(sel);
  if (el) el.focus();
}

// post sends a JSON request; a refusal is kept in ui.error (shown in a banner) and thrown.
export async function post(path, body) {
  ui.sending = true;
  try {
    const r = await fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    const j = await r.json().catch(() => ({error: 'the server answered ' + r.status}));
    if (!r.ok) throw new Error(j.error || ('error ' + r.status));
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
