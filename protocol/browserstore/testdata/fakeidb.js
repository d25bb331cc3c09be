// A fake of the part of the browser's storage that idb.js and lock.go use, for the tests under
// Node (which has no IndexedDB, localStorage or sessionStorage): indexedDB.open with an
// upgrade, object stores with string keys, transactions that are atomic (a copy taken when
// they run, committed at the end or dropped by abort), run one after another in the order they
// were made, and whose requests answer asynchronously in order; a put a test can make fail
// (fakeIDBRefusePut); IDBKeyRange.bound; a Map-backed Storage. Values are copied in and
// out, as the structured clone does.
(() => {
  const copy = (v) => (v instanceof Uint8Array ? v.slice() : v);
  class Range {
    constructor(lo, hi, loOpen, hiOpen) { Object.assign(this, {lo, hi, loOpen, hiOpen}); }
    includes(k) {
      return (this.loOpen ? k > this.lo : k >= this.lo) && (this.hiOpen ? k < this.hi : k <= this.hi);
    }
  }
  globalThis.IDBKeyRange = {bound: (lo, hi, loOpen = false, hiOpen = false) => new Range(lo, hi, loOpen, hiOpen)};
  const match = (q) => (k) => (q instanceof Range ? q.includes(k) : k === q);
  const dbs = new Map();
  class Tx {
    constructor(db, names, mode) {
      this.db = db; this.mode = mode; this.queue = []; this.aborted = false; this.error = null;
      this.names = names; this.work = null;
      setTimeout(() => this.run(), 0);
    }
    objectStore(name) {
      if (!this.names.includes(name)) throw new Error('no object store ' + name);
      const tx = this;
      // The store's working copy is taken when the transaction runs, after every transaction
      // made before it has committed, as IndexedDB orders them.
      const m = () => tx.work.get(name);
      const req = (fn) => { const r = {}; tx.queue.push({r, fn}); return r; };
      const sorted = (q) => [...m().keys()].filter(match(q)).sort();
      const ro = () => { if (tx.mode !== 'readwrite') throw new Error('ReadOnlyError'); };
      return {
        get: (k) => req(() => copy(m().get(k))),
        getKey: (k) => req(() => (m().has(k) ? k : undefined)),
        put: (v, k) => {
          ro();
          return req(() => {
            // A test may make a put fail, as a full disk or a storage quota would.
            if (globalThis.fakeIDBRefusePut && globalThis.fakeIDBRefusePut(k, v)) {
              tx.abort({name: 'QuotaExceededError', message: 'the fake storage is full'});
              return undefined;
            }
            m().set(k, copy(v));
            return k;
          });
        },
        delete: (q) => { ro(); return req(() => { for (const k of sorted(q)) m().delete(k); }); },
        getAll: (q) => req(() => sorted(q).map((k) => copy(m().get(k)))),
        getAllKeys: (q) => req(() => sorted(q)),
      };
    }
    abort(error) {
      this.aborted = true;
      this.error = error || {name: 'AbortError', message: 'aborted'};
    }
    run() {
      this.work = new Map();
      for (const n of this.names) this.work.set(n, new Map(this.db.stores.get(n)));
      while (this.queue.length && !this.aborted) {
        const {r, fn} = this.queue.shift();
        r.result = fn();
        if (r.onsuccess) r.onsuccess({target: r});
      }
      if (this.aborted) { if (this.onabort) this.onabort(); return; }
      if (this.mode === 'readwrite') for (const [n, m] of this.work) this.db.stores.set(n, m);
      if (this.oncomplete) this.oncomplete();
    }
  }
  globalThis.indexedDB = {
    open(name) {
      const r = {};
      setTimeout(() => {
        let db = dbs.get(name);
        const fresh = !db;
        if (fresh) {
          db = {stores: new Map()};
          db.createObjectStore = (n) => { db.stores.set(n, new Map()); };
          db.transaction = (names, mode) => new Tx(db, [].concat(names), mode || 'readonly');
          dbs.set(name, db);
        }
        r.result = db;
        if (fresh && r.onupgradeneeded) r.onupgradeneeded();
        if (r.onsuccess) r.onsuccess();
      }, 0);
      return r;
    },
  };
  class Storage {
    constructor() { this.m = new Map(); }
    getItem(k) { return this.m.has(k) ? this.m.get(k) : null; }
    setItem(k, v) { this.m.set(k, String(v)); }
    removeItem(k) { this.m.delete(k); }
  }
  if (!globalThis.localStorage) globalThis.localStorage = new Storage();
  if (!globalThis.sessionStorage) globalThis.sessionStorage = new Storage();
})();
