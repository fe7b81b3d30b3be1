// esbuild app: the full scenario on the page; ragwasm.wasm is served next to the bundle (build.mjs).
import { init as initRagwasm, chunk, Bm25Index, Collection, metrics } from 'ragwasm';
import { fullScenario, report, settle } from './scenario.js';

const init = () => initRagwasm({ wasmUrl: new URL('./ragwasm.wasm', import.meta.url) });
report(settle(fullScenario({ init, chunk, Bm25Index, Collection, metrics })).then((page) => ({ page })));
