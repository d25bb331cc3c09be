// The browser seat's loader. The phones listener's page runs it after idb.js (the seat's
// storage) and wasm_exec.js (Go's, from the pinned toolchain): it starts the seat
// (seat.wasm), waits for it to register globalThis.corruptionSeat, then loads the page's
// modules, which talk to the seat in process (api.js). It also shows what the seat tells:
// the link to the laptop lost and back, the person's turn (a vibration where the browser
// allows it, else a sound and a mark), and why the seat stopped. And it says, once, what a
// locked screen does to the seat.
(() => {
  const lang = (navigator.language || 'en').slice(0, 2);
  const all = {
    en: {loading: 'Starting your seat…', failed: 'Your seat stopped: ', lost: 'Reconnecting to the laptop…',
      turn: 'Your turn', lock: 'Keep this page open. If the screen locks, your seat waits: the table\'s clock and your bank keep running, and past them the others play on without you. Unlock and come back to this page to catch up.',
      ok: 'Got it'},
    es: {loading: 'Iniciando tu asiento…', failed: 'Tu asiento se detuvo: ', lost: 'Reconectando con el portátil…',
      turn: 'Tu turno', lock: 'Mantén esta página abierta. Si la pantalla se bloquea, tu asiento espera: el reloj de la mesa y tu reserva siguen corriendo y, pasados, los demás siguen sin ti. Desbloquea y vuelve a esta página para ponerte al día.',
      ok: 'Entendido'},
    fr: {loading: 'Démarrage de votre place…', failed: 'Votre place s\'est arrêtée : ', lost: 'Reconnexion à l\'ordinateur…',
      turn: 'À vous', lock: 'Gardez cette page ouverte. Si l\'écran se verrouille, votre place attend : l\'horloge de la table et votre réserve continuent de courir et, au-delà, les autres jouent sans vous. Déverrouillez et revenez sur cette page pour rattraper.',
      ok: 'Compris'},
  };
  const w = all[lang] || all.en;
  const pill = (id, text, role) => {
    let p = document.getElementById(id);
    if (!p) {
      p = document.createElement('div');
      p.id = id;
      p.className = 'seat-pill';
      p.setAttribute('role', role);
      Object.assign(p.style, {position: 'fixed', left: '50%', transform: 'translateX(-50%)', zIndex: 1000,
        padding: '0.4em 1em', borderRadius: '1em', background: '#222', color: '#fff', font: 'inherit'});
      p.style.top = id === 'seat-turn' ? '0.5em' : 'auto';
      p.style.bottom = id === 'seat-turn' ? 'auto' : '0.5em';
      document.body.appendChild(p);
    }
    p.textContent = text;
    p.hidden = false;
    return p;
  };
  const hide = (id) => { const p = document.getElementById(id); if (p) p.hidden = true; };
  const main = () => document.getElementById('main');
  const say = (text) => { const m = main(); if (m) { m.textContent = ''; const p = document.createElement('p'); p.className = 'loading'; p.textContent = text; m.appendChild(p); } };

  globalThis.corruptionSeatFailed = (msg) => { say(w.failed + msg); document.body.dataset.seat = 'failed'; };
  globalThis.corruptionSeatConnected = (up) => {
    document.body.dataset.bridge = up ? 'up' : 'down';
    if (up) hide('seat-link'); else pill('seat-link', w.lost, 'status');
  };
  // corruptionSeatDrawn(cb) calls cb(true) once the page has drawn its next frame (the seat
  // paces the states it hands the page by what drawing them costs), or cb(false) if no frame
  // comes within a second (a hidden page draws none).
  globalThis.corruptionSeatDrawn = (cb) => {
    let done = false;
    const once = (framed) => { if (!done) { done = true; cb(framed); } };
    requestAnimationFrame(() => setTimeout(() => once(true), 0));
    setTimeout(() => once(false), 1000);
  };
  // The turn: vibrate where allowed; else (or as well, when the page is hidden) a short tone
  // and a mark in the title and on the page.
  let audio = null;
  addEventListener('pointerdown', () => {
    try { audio = audio || new (globalThis.AudioContext || globalThis.webkitAudioContext)(); audio.resume(); } catch { audio = null; }
  }, {once: false, passive: true});
  const beep = () => {
    if (!audio) return;
    try {
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 660; g.gain.value = 0.15;
      o.connect(g); g.connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.18);
    } catch { /* no sound: the mark stays */ }
  };
  const title = () => document.title.replace(/^● /, '');
  globalThis.corruptionSeatTurn = (due) => {
    document.body.dataset.turn = due ? 'due' : '';
    if (!due) { hide('seat-turn'); document.title = title(); return; }
    document.title = '● ' + title();
    let vibrated = false;
    try { vibrated = typeof navigator.vibrate === 'function' && navigator.vibrate([200, 100, 200]); } catch { vibrated = false; }
    if (!vibrated || document.hidden) beep();
    if (!vibrated) pill('seat-turn', w.turn, 'alert');
  };
  // What a locked screen does, once per browser.
  const lockNote = () => {
    try { if (localStorage.getItem('corruption.seat.lock-note')) return; } catch { /* private mode: show it */ }
    const n = pill('seat-note', '', 'note');
    Object.assign(n.style, {maxWidth: '90vw', borderRadius: '0.5em', textAlign: 'start'});
    const t = document.createElement('span');
    t.textContent = w.lock + ' ';
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = w.ok;
    b.addEventListener('click', () => {
      n.hidden = true;
      try { localStorage.setItem('corruption.seat.lock-note', '1'); } catch { /* nothing kept */ }
    });
    n.append(t, b);
  };

  const start = async () => {
    say(w.loading);
    const ready = new Promise((resolve) => { globalThis.corruptionSeatReady = resolve; });
    const go = new Go();
    const r = await fetch('/seat.wasm');
    if (!r.ok) throw new Error('the laptop did not send the seat (' + r.status + ')');
    const {instance} = await WebAssembly.instantiateStreaming(r, go.importObject);
    go.run(instance).then(() => globalThis.corruptionSeatFailed('the seat\'s program ended'));
    await ready;
    if (new URLSearchParams(location.search).get('page') === '0') { say('seat running, page not loaded'); return; }
    await import('/static/app.js');
    lockNote();
  };
  const go = () => start().catch((e) => globalThis.corruptionSeatFailed(String(e && e.message || e)));
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', go); else go();
})();
