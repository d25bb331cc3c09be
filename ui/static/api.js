// The page's one door to its seat. The shell (app.js, kit.js) and every board talk to their
// seat through this module alone: the state stream, every request of the API (moves, the
// lobby, the dial, chat, pause, rematch, quit), the session, and the page's stored settings.
// Nothing else in the page calls fetch or EventSource or touches the browser's storage (a Go
// test holds the page to that: TestOneDoor).
//
// Two transports behind one interface:
//   - http (the laptop): the seat is the person's node, whose server answers /api/ on
//     loopback. The session key rides in the node's own cookie (corruption_key_NODE, HttpOnly:
//     this script never sees it); the state streams as server-sent events.
//   - in-process (the browser seat): the seat runs in this very page, and registered itself
//     before the page's modules load, as globalThis.corruptionSeat:
//         scope                              the name of the page's storage (per table)
//         request(method, path, body)        a Promise of {status, body}: body JSON text ('' for
//                                            none), as the HTTP server would answer
//         subscribe(path, onEvent, onEnd)    the event stream: onEvent(name, data) for each
//                                            event, onEnd() when it ends; returns its close()
//     The seat answers with the same Go handler as the laptop's server (ui.InProcess).
// Paths are the API's (docs/UI.md, "API"), with the page's ?lang=; bodies are JSON.
//
// The page's storage is kept under a name of its node (http: the node id the page's
// <meta name="corruption-node"> gives) or of its seat (in-process: its scope), so that two
// nodes' or two tables' pages in one browser never read or wipe each other's settings.

const seat = globalThis.corruptionSeat || null;

// transport is how the page reaches its seat: 'http' or 'in-process'.
export const transport = seat ? 'in-process' : 'http';

// scope names the page's storage: its node's, or its seat's.
export const scope = String(seat ? seat.scope || 'seat'
  : (document.querySelector('meta[name="corruption-node"]') || {}).content || 'page');

const parse = (text) => {
  try { return text ? JSON.parse(text) : null; } catch { return null; }
};

// request sends method path with body (an object, sent as JSON; undefined for none) and
// resolves to {status, json} (json null when the answer is not JSON). It rejects when the seat
// cannot be reached at all.
export async function request(method, path, body) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  if (seat) {
    const r = await seat.request(method, path, text === undefined ? '' : text);
    return {status: r.status, json: parse(r.body)};
  }
  const r = await fetch(path, {method, headers: text === undefined ? {} : {'Content-Type': 'application/json'}, body: text});
  return {status: r.status, json: parse(await r.text().catch(() => ''))};
}

// events streams path's events: on[name](data) for each event of a name on knows, onError()
// when the stream breaks (over HTTP the browser tries again by itself). It returns {close}.
export function events(path, on, onError) {
  if (seat) {
    let closed = false;
    const stop = seat.subscribe(path, (name, data) => { if (!closed && on[name]) on[name](data); },
      () => { if (!closed) onError(); });
    return {close() { closed = true; if (typeof stop === 'function') stop(); }};
  }
  const es = new EventSource(path);
  for (const [name, fn] of Object.entries(on)) es.addEventListener(name, (ev) => fn(ev.data));
  es.onerror = () => onError();
  return {close() { es.close(); }};
}

// staticJSON reads a JSON file the page is served with (the words), in either transport; null
// when it cannot.
export async function staticJSON(path) {
  try {
    const r = await fetch(path);
    return r.ok ? await r.json() : null;
  } catch {
    return null;
  }
}

// staticText reads a file the page is served with as text (a sprite of pictures), in either
// transport; null when it cannot.
export async function staticText(path) {
  try {
    const r = await fetch(path);
    return r.ok ? await r.text() : null;
  } catch {
    return null;
  }
}

// keeper keeps strings in the browser's area (localStorage: kept; sessionStorage: this tab),
// under the page's scope; where storage is refused (private mode) nothing is kept.
function keeper(area) {
  const name = (k) => `corruption.${scope}.${k}`;
  return {
    get(k) { try { return globalThis[area].getItem(name(k)); } catch { return null; } },
    set(k, v) { try { globalThis[area].setItem(name(k), String(v)); } catch { /* not kept */ } },
  };
}

// store keeps the page's settings (its language, a board's pace); session keeps what lasts as
// long as the tab (a board's pass ahead).
export const store = keeper('localStorage');
export const session = keeper('sessionStorage');
