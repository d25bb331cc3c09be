// The browser seat's loader. The phones listener's page runs it after idb.js (the seat's
// storage) and wasm_exec.js (Go's, from the pinned toolchain): it starts the seat
// (seat.wasm), waits for it to register globalThis.corruptionSeat, then loads the page's
// modules, which talk to the seat in process (api.js). It also shows what the seat tells:
// which laptop it reached (its name and fingerprint), why it cannot reach it (in words, within
// seconds), the person's turn (a vibration where the browser allows it, else a sound and a
// mark, unless the person turned the alerts off), and why the seat stopped, with a way back.
// While the seat starts, the page's header speaks the browser's language, and a language
// chosen then is the page's (app.js reads it).
(() => {
  const langs = ['en', 'es', 'fr'];
  const browserLang = () => {
    for (const l of navigator.languages || [navigator.language || 'en']) {
      const code = String(l).toLowerCase().split(/[-_]/)[0];
      if (langs.includes(code)) return code;
    }
    return 'en';
  };
  const all = {
    en: {loading: 'Starting your seat…', failed: 'Your seat stopped: ', reload: 'Start again', lost: 'Reconnecting to the laptop…',
      turn: 'Your turn', laptop: 'Laptop: {name} · {fp}',
      refused: 'This address is wrong or old: scan the code on the laptop again.',
      moved: 'The laptop gave phones a new address: scan its new code to come back to your seat.',
      closing: 'The laptop stopped: the game is over there, and its tables are closed.',
      full: 'The laptop already serves as many phones as it can: try again when one leaves.',
      unreachable: 'The laptop does not answer: it stopped, or its address changed. Scan its code again.',
      unsupported: 'The laptop runs another release of corruption: reload this page.'},
    es: {loading: 'Iniciando tu asiento…', failed: 'Tu asiento se detuvo: ', reload: 'Empezar de nuevo', lost: 'Reconectando con el portátil…',
      turn: 'Tu turno', laptop: 'Portátil: {name} · {fp}',
      refused: 'Esta dirección es incorrecta o antigua: vuelve a escanear el código del portátil.',
      moved: 'El portátil dio una dirección nueva a los teléfonos: escanea su código nuevo para volver a tu asiento.',
      closing: 'El portátil se detuvo: la partida terminó allí y sus mesas están cerradas.',
      full: 'El portátil ya atiende a todos los teléfonos que puede: vuelve a intentarlo cuando se vaya uno.',
      unreachable: 'El portátil no responde: se detuvo o cambió de dirección. Vuelve a escanear su código.',
      unsupported: 'El portátil usa otra versión de corruption: recarga esta página.'},
    fr: {loading: 'Démarrage de votre place…', failed: 'Votre place s\'est arrêtée : ', reload: 'Recommencer', lost: 'Reconnexion à l\'ordinateur…',
      turn: 'À vous', laptop: 'Ordinateur : {name} · {fp}',
      refused: 'Cette adresse est fausse ou ancienne : scannez à nouveau le code de l\'ordinateur.',
      moved: 'L\'ordinateur a donné une nouvelle adresse aux téléphones : scannez son nouveau code pour revenir à votre place.',
      closing: 'L\'ordinateur s\'est arrêté : la partie y est finie et ses tables sont fermées.',
      full: 'L\'ordinateur sert déjà autant de téléphones qu\'il peut : réessayez quand l\'un d\'eux sera parti.',
      unreachable: 'L\'ordinateur ne répond pas : il s\'est arrêté, ou son adresse a changé. Scannez à nouveau son code.',
      unsupported: 'L\'ordinateur a une autre version de corruption : rechargez cette page.'},
  };
  let lang = browserLang();
  const w = (k, args) => String((all[lang] || all.en)[k] || all.en[k]).replace(/\{(\w+)\}/g, (_, a) => (args && a in args ? args[a] : ''));

  // The header in the page's language while the seat starts (the page's words, as app.js
  // will show them), and a language chosen meanwhile kept for the page.
  const header = async () => {
    document.documentElement.lang = lang;
    const sel = document.getElementById('lang');
    if (sel) sel.value = lang;
    try {
      const r = await fetch(`/static/lang/${lang}.json`);
      const words = r.ok ? (await r.json()).words || {} : {};
      if (globalThis.corruptionSeatStarted) return; // the page's modules speak for themselves now
      for (const el of document.querySelectorAll('#top [data-t]')) if (words[el.dataset.t]) el.textContent = words[el.dataset.t];
      for (const el of document.querySelectorAll('#top [data-t-title]')) if (words[el.dataset.tTitle]) el.title = words[el.dataset.tTitle];
    } catch { /* the page's modules will */ }
  };
  const choose = (e) => {
    if (globalThis.corruptionSeatStarted || !langs.includes(e.target.value)) return;
    lang = e.target.value;
    globalThis.corruptionSeatLang = lang; // app.js takes it as the person's choice
    header();
    const m = document.querySelector('#main p.loading');
    if (m && !document.body.dataset.seat) m.textContent = w('loading');
    for (const p of document.querySelectorAll('.seat-pill[data-say]')) p.firstChild.textContent = w(p.dataset.say, p.dataset);
  };

  const pill = (id, key, role, top) => {
    let p = document.getElementById(id);
    if (!p) {
      p = document.createElement('div');
      p.id = id;
      p.className = 'seat-pill';
      p.setAttribute('role', role);
      Object.assign(p.style, {position: 'fixed', left: '50%', transform: 'translateX(-50%)', zIndex: 1000, maxWidth: '90vw',
        padding: '0.4em 1em', borderRadius: '1em', background: '#222', color: '#fff', font: 'inherit', textAlign: 'center'});
      p.append(document.createTextNode(''));
      document.body.appendChild(p);
    }
    p.style.top = top ? '0.5em' : 'auto';
    p.style.bottom = top ? 'auto' : '0.5em';
    p.dataset.say = key;
    p.firstChild.textContent = w(key);
    p.hidden = false;
    return p;
  };
  const hide = (id) => { const p = document.getElementById(id); if (p) p.hidden = true; };
  const main = () => document.getElementById('main');
  const say = (text, again) => {
    const m = main();
    if (!m) return;
    m.textContent = '';
    const p = document.createElement('p');
    p.className = 'loading';
    p.textContent = text;
    m.appendChild(p);
    if (again) {
      const b = document.createElement('button');
      b.type = 'button';
      b.id = 'seat-reload';
      b.textContent = w('reload');
      b.addEventListener('click', () => location.reload());
      m.appendChild(b);
    }
  };

  // Why the seat stopped, and a way back: a new start comes back to the lobby (a table that
  // cannot be played is forgotten before its results).
  globalThis.corruptionSeatFailed = (msg) => { say(w('failed') + msg, true); document.body.dataset.seat = 'failed'; };
  // Which laptop the seat reached, from the laptop's own welcome: a person sees another
  // machine answering at the address (docs/SECURITY.md, "A seat in the browser").
  globalThis.corruptionSeatLaptop = (name, fp) => {
    document.body.dataset.laptop = fp;
    let el = document.getElementById('seat-laptop');
    if (!el) {
      el = document.createElement('p');
      el.id = 'seat-laptop';
      el.className = 'seat-laptop hint';
      const top = document.getElementById('top');
      if (top) top.after(el); else document.body.prepend(el);
    }
    el.dataset.name = name;
    el.dataset.fp = fp;
    el.textContent = w('laptop', {name, fp});
  };
  // What keeps the seat from its laptop, in words (kind '' once it is back).
  let trouble = '';
  globalThis.corruptionSeatTrouble = (kind, text) => {
    trouble = kind;
    document.body.dataset.trouble = kind;
    if (!kind) { hide('seat-trouble'); return; }
    hide('seat-link');
    const p = pill('seat-trouble', kind, 'alert', true);
    p.title = text || '';
  };
  globalThis.corruptionSeatConnected = (up) => {
    document.body.dataset.bridge = up ? 'up' : 'down';
    if (up || trouble) hide('seat-link'); else pill('seat-link', 'lost', 'status', false);
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
  // The turn: vibrate where allowed; else (or as well, when the page is hidden, as a locked
  // screen leaves it) a short tone and a mark in the title and on the page. The page's
  // "Alerts" switch (app.js: body data-alerts="off") turns the vibration and the tone off;
  // the title's mark stays.
  let audio = null;
  addEventListener('pointerdown', () => {
    try { audio = audio || new (globalThis.AudioContext || globalThis.webkitAudioContext)(); audio.resume(); } catch { audio = null; }
  }, {once: false, passive: true});
  const beep = () => {
    if (!audio) return false;
    try {
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 660; g.gain.value = 0.15;
      o.connect(g); g.connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.18);
      return true;
    } catch { return false; /* no sound: the mark stays */ }
  };
  const title = () => document.title.replace(/^● /, '');
  globalThis.corruptionSeatTurn = (due) => {
    document.body.dataset.turn = due ? 'due' : '';
    if (!due) { hide('seat-turn'); document.title = title(); return; }
    document.title = '● ' + title();
    const quiet = document.body.dataset.alerts === 'off';
    let vibrated = false, toned = false;
    if (!quiet) {
      try { vibrated = typeof navigator.vibrate === 'function' && navigator.vibrate([200, 100, 200]); } catch { vibrated = false; }
      if (!vibrated || document.hidden) toned = beep();
    }
    document.body.dataset.alerted = quiet ? 'quiet' : [vibrated ? 'vibrate' : '', toned ? 'tone' : ''].filter(Boolean).join(' ') || 'mark';
    if (!vibrated) pill('seat-turn', 'turn', 'alert', true);
  };

  const start = async () => {
    say(w('loading'));
    header();
    const sel = document.getElementById('lang');
    if (sel) sel.addEventListener('change', choose);
    const ready = new Promise((resolve) => { globalThis.corruptionSeatReady = resolve; });
    const go = new Go();
    const r = await fetch('/seat.wasm');
    if (!r.ok) throw new Error('the laptop did not send the seat (' + r.status + ')');
    const {instance} = await WebAssembly.instantiateStreaming(r, go.importObject);
    go.run(instance).then(() => globalThis.corruptionSeatFailed('the seat\'s program ended'));
    await ready;
    if (new URLSearchParams(location.search).get('page') === '0') { say('seat running, page not loaded'); return; }
    globalThis.corruptionSeatStarted = true;
    if (sel) sel.removeEventListener('change', choose);
    await import('/static/app.js');
  };
  const go = () => start().catch((e) => globalThis.corruptionSeatFailed(String(e && e.message || e)));
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', go); else go();
})();
