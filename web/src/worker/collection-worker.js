// @ts-check
// The Worker script of ragwasm/worker (issue 29): one Collection in a module Worker (browser) or a
// worker_threads Worker (Node). No top-level await (Vite's default 'iife' worker format rejects it): the
// message listener is attached synchronously and queues every message until init() has finished, then
// posts {type: 'ready'} and handles the queue in order (init's options come in the first message). Replies: {id, ok, value} (typed arrays
// transferred), {id, ok: false, code, message}, and {id, progress: [done, total]} during add/upsert.
import { init, Collection, ask, createStaticEmbedder, RagwasmError } from '../index.js';
import { isNode, nodeBuiltin } from '../core/node.js';

const port = isNode ? nodeBuiltin('worker_threads').parentPort : self;
const post = (msg, transfer = []) => port.postMessage(msg, transfer);
let collection = null;
const controllers = new Map();  // id of a running add/upsert -> its AbortController

function need() {
  if (collection === null) throw new RagwasmError('NOT_INITIALIZED', 'ragwasm: worker: no collection yet (call create, load or fromBytes first)');
  return collection;
}

function replace(next) {
  if (collection !== null) collection.dispose();
  collection = next;
  return { size: next.size };
}

const ops = {
  async create(id, config, options) { return replace(await Collection.create(config, options)); },
  async load(id, name, options) { return replace(await withDefaultModel(options, (o) => Collection.load(name, o))); },
  async fromBytes(id, bytes, options) { return replace(await withDefaultModel(options, (o) => Collection.fromBytes(bytes, o))); },
  async add(id, docs, options) { return write(id, 'add', docs, options); },
  async upsert(id, docs, options) { return write(id, 'upsert', docs, options); },
  async remove(id, ids) { return need().remove(ids); },
  async search(id, query, options) { return need().search(query, options); },
  async ask(id, question, options) { return ask(need(), question, options); },
  async save(id, name, options) { return need().save(name, options); },
  async toBytes() { return need().toBytes(); },
  async size() { return need().size; },
  async dispose() {
    if (collection !== null) collection.dispose();
    collection = null;
  },
};

// No embedder can cross to the Worker: a collection saved with one is opened with the default static model,
// which Collection accepts only when the saved embedder id is the default model's (any other id still refuses,
// naming it).
async function withDefaultModel(options = {}, open) {
  if (options.embedder !== undefined) return open(options);
  try {
    return await open(options);
  } catch (e) {
    if (!(e && e.code === 'INVALID_ARGUMENT' && /options\.embedder: expected an embedder/.test(e.message))) throw e;
    return open({ ...options, embedder: await createStaticEmbedder() });
  }
}

async function write(id, method, docs, options = {}) {
  const c = new AbortController();
  controllers.set(id, c);
  try {
    const { progress, ...rest } = options;
    /** @type {{signal: AbortSignal, onProgress?: (progress: object) => void}} */
    const o = { ...rest, signal: c.signal };
    if (progress) o.onProgress = (p) => post({ id, progress: { ...p } });  // the one onProgress signature: ({done, total, ...})
    return await need()[method](docs, o);
  } finally {
    controllers.delete(id);
  }
}

async function handle(msg) {
  const { id, op, args } = msg;
  try {
    if (!Object.hasOwn(ops, op)) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: worker: unknown operation '${op}'`);
    const value = await ops[op](id, ...(args ?? []));
    post({ id, ok: true, value }, value instanceof Uint8Array ? [value.buffer] : []);
  } catch (e) {
    post({ id, ok: false, code: e && typeof e.code === 'string' ? e.code : 'INTERNAL', message: e && typeof e.message === 'string' ? e.message : String(e) });
  }
}

// Calls run one at a time in arrival order (a search sent after an add sees its documents); an abort
// is handled at once, since the add it stops is the call running. The first message is
// {op: 'init', args: [initOptions]}; anything that arrives before init() has finished waits in `queue`.
let ready = false;
let initStarted = false;
const queue = [];
let chain = Promise.resolve();
function receive(msg) {
  if (msg && msg.op === 'abort') {
    controllers.get(msg.target)?.abort();
    return;
  }
  if (msg && msg.op === 'init' && !initStarted) {
    initStarted = true;
    const fail = (e) => post({ type: 'ready', ok: false, code: e && typeof e.code === 'string' ? e.code : 'INTERNAL', message: e && typeof e.message === 'string' ? e.message : String(e) });
    let started;
    try {
      started = init(...(msg.args ?? []));
    } catch (e) {
      fail(e);
      return;
    }
    started.then(() => {
      ready = true;
      post({ type: 'ready', ok: true });
      for (const m of queue.splice(0)) receive(m);
    }, fail);
    return;
  }
  if (!ready) {
    queue.push(msg);
    return;
  }
  chain = chain.then(() => handle(msg));
}
if (isNode) port.on('message', receive);
else port.onmessage = (event) => receive(event.data);
