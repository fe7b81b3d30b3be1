// @ts-check
// The Worker script of the pool (pool.js): a browser module Worker or a Node worker_threads Worker.
// Runs host.js operations one message at a time and posts {id, ok, value} or {id, ok: false, code,
// message}; typed arrays in replies are transferred, not copied.
import { createHost, transferables } from './host.js';
import { isNode, nodeBuiltin } from '../core/node.js';

const host = createHost();
const port = isNode ? nodeBuiltin('worker_threads').parentPort : self;

async function onMessage(msg) {
  const { id, op, args } = msg;
  try {
    const value = await host.call(op, args);
    port.postMessage({ id, ok: true, value }, transferables(value));
  } catch (e) {
    const code = e && typeof e.code === 'string' ? e.code : 'INTERNAL';
    const message = e && typeof e.message === 'string' ? e.message : String(e);
    port.postMessage({ id, ok: false, code, message });
  }
}

// Messages are handled in order: a search sent after an add sees the added documents.
let chain = Promise.resolve();
const receive = (msg) => { chain = chain.then(() => onMessage(msg)); };
if (isNode) port.on('message', receive);
else port.onmessage = (event) => receive(event.data);
