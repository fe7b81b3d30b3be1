// Persistence for doc chat: the user's extracted documents in IndexedDB (this origin only, never
// uploaded). The search index itself is a Collection that chat-worker.js saves through
// web/src/core/storage.js; when it is missing, damaged or for other documents it is rebuilt from these
// (indexing is deterministic, so the same question gives the same answer).
const DB = 'ragwasm-doc-chat';
const STORE = 'documents';
const VERSION = 1;

function open() {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') { reject(new Error('IndexedDB is not available in this browser')); return; }
    const req = indexedDB.open(DB, VERSION);
    req.onupgradeneeded = () => { if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE, { keyPath: 'id' }); };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('could not open IndexedDB'));
  });
}

async function tx(mode, fn) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const t = db.transaction(STORE, mode);
      const store = t.objectStore(STORE);
      let result;
      Promise.resolve(fn(store)).then((r) => { result = r; }, reject);
      t.oncomplete = () => resolve(result);
      t.onerror = () => reject(t.error ?? new Error('IndexedDB transaction failed'));
      t.onabort = () => reject(t.error ?? new Error('IndexedDB transaction aborted'));
    });
  } finally {
    db.close();
  }
}

const req = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });

/** All saved documents ({id, name, format, text, pages?, added}), oldest first. */
export async function loadDocuments() {
  const all = await tx('readonly', (s) => req(s.getAll()));
  return all.sort((a, b) => a.added - b.added || (a.id < b.id ? -1 : 1));
}
/** Saves (or replaces) documents. */
export async function saveDocuments(docs) {
  await tx('readwrite', (s) => Promise.all(docs.map((d) => req(s.put(d)))));
}
/** Removes one document. */
export async function removeDocument(id) {
  await tx('readwrite', (s) => req(s.delete(id)));
}
/** Removes every document. */
export async function clearDocuments() {
  await tx('readwrite', (s) => req(s.clear()));
}
