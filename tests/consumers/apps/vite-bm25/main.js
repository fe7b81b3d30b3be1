// Vite app using only init, chunk and Bm25Index: what a BM25-only app ships (the size target). It begins
// the WASM download and compile before ragwasm's JS is imported and hands init() the promise
// (init({ wasmModule }), docs/install.md): the .wasm is still fetched once.
import wasmUrl from 'ragwasm/ragwasm.wasm?url';
import { bm25Scenario, report, settle } from './scenario.js';

const wasmModule = WebAssembly.compileStreaming(fetch(wasmUrl));
report(settle(import('ragwasm').then(({ init, chunk, Bm25Index }) => bm25Scenario({ init: () => init({ wasmModule }), chunk, Bm25Index }))).then((page) => ({ page })));
