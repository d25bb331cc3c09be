// The browser seat's files in IndexedDB, for the Go backend in this package (idb.go). The page
// loads this script before the seat's WebAssembly (the page's policy allows no eval); it sets
// globalThis.corruptionIDB to the operations, each a Promise, each one transaction. One database per origin ("corruption-seats"), two object stores:
//   files   key: seat NUL name NUL chunk (9 digits); value: a Uint8Array. A file is its
//           chunks in key order; a write replaces them with one, an append adds one.
//   owners  key: seat; value: the token of the tab that holds the seat.
// Every operation that changes a seat's files checks, in its own transaction, that the seat's
// owner is still the caller's token, and aborts with the error "stolen" otherwise: two tabs
// never both write one seat, whatever their timing.
globalThis.corruptionIDB = (() => {
const DB = 'corruption-seats';
let opened = null;
const open = () => opened || (opened = new Promise((resolve, reject) => {
  const r = indexedDB.open(DB, 1);
  r.onupgradeneeded = () => {
    r.result.createObjectStore('files');
    r.result.createObjectStore('owners');
  };
  r.onsuccess = () => resolve(r.result);
  r.onerror = () => { opened = null; reject(new Error('cannot open the browser storage: ' + (r.error && r.error.message))); };
}));
const pad = (n) => String(n).padStart(9, '0');
const key = (seat, name, n) => seat + '\0' + name + '\0' + pad(n);
const fileRange = (seat, name) => IDBKeyRange.bound(seat + '\0' + name + '\0', seat + '\0' + name + '\x01', false, true);
const errOf = (tx, fallback) => {
  const e = tx.error;
  return new Error(e ? (e.message || String(e)) : fallback);
};
// run runs body(stores) in one transaction; a write checks the owner first. It resolves with
// what body set as out.value when the transaction completes. Every call seals the batch of
// appends not waited for (appendLater) that is still open: no append made after a call joins
// a transaction made before it.
const run = async (seat, token, write, strict, body) => {
  batch = null;
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(['files', 'owners'], write ? 'readwrite' : 'readonly',
      {durability: strict ? 'strict' : 'relaxed'});
    const files = tx.objectStore('files');
    const owners = tx.objectStore('owners');
    const out = {value: undefined, error: null};
    tx.oncomplete = () => out.error ? reject(out.error) : resolve(out.value);
    tx.onabort = () => reject(out.error || errOf(tx, 'the browser storage refused a write'));
    tx.onerror = () => {};
    const fail = (msg) => { out.error = new Error(msg); try { tx.abort(); } catch {} };
    if (!write || token === null) { body(files, owners, out, fail); return; }
    const g = owners.get(seat);
    g.onsuccess = () => {
      if (g.result !== token) { fail('stolen'); return; }
      body(files, owners, out, fail);
    };
  });
};
const chunks = (files, seat, name, done) => {
  const r = files.getAll(fileRange(seat, name));
  r.onsuccess = () => done(r.result);
};
const keys = (files, seat, name, done) => {
  const r = files.getAllKeys(fileRange(seat, name));
  r.onsuccess = () => done(r.result);
};
// put adds chunks [n, data]... of a file, once the chunk before the first is there: an
// append after a failed one fails too ("hole"), so that a file is always its chunks 0..k with
// none missing.
const put = (files, seat, name, items, fail) => {
  const write = () => { for (const [n, data] of items) files.put(data, key(seat, name, n)); };
  const first = items[0][0];
  if (first === 0) { write(); return; }
  const g = files.getKey(key(seat, name, first - 1));
  g.onsuccess = () => {
    if (g.result === undefined) { fail('hole: the append before this one did not land'); return; }
    write();
  };
};
const append = (seat, token, name, n, data, strict) => run(seat, token, true, strict,
  (files, owners, out, fail) => put(files, seat, name, [[n, data]], fail));
// The appends not waited for (appendLater), by seat NUL name: the last transaction's promise,
// and the first failure. batch is the one whose transaction has not begun, which the next
// appends of its file join (one transaction for a burst of entries), until any other call.
const later = new Map();
let batch = null;
const join = (parts) => {
  let n = 0;
  for (const p of parts) n += p.length;
  const b = new Uint8Array(n);
  let at = 0;
  for (const p of parts) { b.set(p, at); at += p.length; }
  return b;
};
return {
  // read resolves to the file's bytes, or null when there is no such file.
  read: (seat, name) => run(seat, null, false, false, (files, owners, out) =>
    chunks(files, seat, name, (cs) => { out.value = cs.length ? join(cs) : null; })),
  // stat resolves to [chunks, bytes] of the file ([0, 0] when missing).
  stat: (seat, name) => run(seat, null, false, false, (files, owners, out) =>
    chunks(files, seat, name, (cs) => { out.value = [cs.length, cs.reduce((n, c) => n + c.length, 0)]; })),
  write: (seat, token, name, data) => run(seat, token, true, true, (files) => {
    files.delete(fileRange(seat, name));
    files.put(data, key(seat, name, 0));
  }),
  // append adds data as chunk n (the appender counts its chunks).
  append,
  // appendLater is append without a sync, not waited for: it returns at once. It is written
  // in a transaction made at the call, or in the one of the appends just before it if that
  // one has not begun and no other call came between; IndexedDB runs a store's transactions
  // in the order they were made, so every call made before it is done first, and every call
  // made after it sees it (a read; a file written anew replaces it).
  // The first one of a file that fails is kept for the Go half, which asks at its next call
  // (failure); every later append fails too, on its check of the chunk before it.
  appendLater: (seat, token, name, n, data) => {
    const id = seat + '\0' + name;
    if (batch && batch.id === id && batch.token === token && batch.next === n) {
      batch.items.push([n, data]);
      batch.next++;
      return;
    }
    let st = later.get(id);
    if (!st) later.set(id, st = {last: null, error: null});
    const b = {id, token, next: n + 1, items: [[n, data]]};
    st.last = run(seat, token, true, false, (files, owners, out, fail) => {
      if (batch === b) batch = null; // begun: later appends make a transaction of their own
      put(files, seat, name, b.items, fail);
    }).catch((e) => { st.error = st.error || e; });
    batch = b; // after run, which seals the batch before it
  },
  // failure is the message of the first failed appendLater of a file, or null.
  failure: (seat, name) => {
    const st = later.get(seat + '\0' + name);
    return st && st.error ? st.error.message : null;
  },
  // settle resolves once the file's appends not waited for are done, with the first one's
  // failure (or null), and forgets them (the Go half's appender closes).
  settle: async (seat, name) => {
    const id = seat + '\0' + name;
    const st = later.get(id);
    if (!st) return null;
    await st.last;
    if (later.get(id) === st) later.delete(id);
    return st.error ? st.error.message : null;
  },
  rename: (seat, token, from, to) => run(seat, token, true, true, (files, owners, out, fail) =>
    chunks(files, seat, from, (cs) => {
      if (!cs.length) { fail('missing'); return; }
      files.delete(fileRange(seat, to));
      files.delete(fileRange(seat, from));
      cs.forEach((c, i) => files.put(c, key(seat, to, i)));
    })),
  // remove deletes a file, once its chunks were overwritten with zeros in a transaction of
  // their own (a secret is not left whole in the browser's storage as long as it can help:
  // IndexedDB gives no promise that the old bytes are gone from the disk).
  remove: async (seat, token, name) => {
    await run(seat, token, true, true, (files, owners, out, fail) =>
      chunks(files, seat, name, (cs) => {
        if (!cs.length) { fail('missing'); return; }
        keys(files, seat, name, (ks) => ks.forEach((k, i) => files.put(new Uint8Array(cs[i].length), k)));
      }));
    return run(seat, token, true, true, (files) => { files.delete(fileRange(seat, name)); });
  },
  // list resolves to every file name of the seat under prefix (prefix '' or 'dir/').
  list: (seat, prefix) => run(seat, null, false, false, (files, owners, out) => {
    const r = files.getAllKeys(IDBKeyRange.bound(seat + '\0' + prefix, seat + '\0' + prefix + '\uffff'));
    r.onsuccess = () => { out.value = r.result.map((k) => k.split('\0')[1]); };
  }),
  // claim makes token the seat's owner; release gives the seat up if token still holds it.
  claim: (seat, token) => run(seat, null, true, true, (files, owners) => { owners.put(token, seat); }),
  release: (seat, token) => run(seat, null, true, true, (files, owners) => {
    const g = owners.get(seat);
    g.onsuccess = () => { if (g.result === token) owners.delete(seat); };
  }),
  // owner resolves to the seat's owner token (undefined: none).
  owner: (seat) => run(seat, null, false, false, (files, owners, out) => {
    const g = owners.get(seat);
    g.onsuccess = () => { out.value = g.result; };
  }),
};
})();
