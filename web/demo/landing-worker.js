// Module Worker for the landing page: init the WASM module, split the sample corpus into sentences.
import { init, SentenceSplitter } from '../src/index.js';

self.onmessage = async ({ data }) => {
  try {
    const t0 = performance.now();
    const loaded = await init();
    const t1 = performance.now();
    const corpus = await (await fetch(data.corpusUrl)).json();
    const splitter = SentenceSplitter.create();
    const t2 = performance.now();
    const documents = corpus.documents.map((d) => ({ id: d.id, characters: d.text.length, sentences: splitter.split(d.text).length }));
    const t3 = performance.now();
    splitter.dispose();
    self.postMessage({
      version: loaded.version, build: loaded.build, documents,
      totalCharacters: documents.reduce((a, d) => a + d.characters, 0),
      totalSentences: documents.reduce((a, d) => a + d.sentences, 0),
      initMs: t1 - t0, splitMs: t3 - t2,
      context: typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope ? 'Web Worker' : 'window',
    });
  } catch (e) {
    self.postMessage({ error: { code: e.code ?? 'INTERNAL', message: e.message ?? String(e) } });
  }
};
