// Named pipeline configs exported by the library. PRESETS.docChat is what doc chat (web/demo/chat.html)
// and `ragwasm ask` use: chosen on the tuning half of examples/corpus/split.json only and reported on
// both halves by `npm run bench -- docchat` (docs/docchat.md has the table and what was tried).

/**
 * Doc chat over a user's markdown / text / PDF / HTML / DOCX files:
 * - chunker: the library's default (recursive, 1000 characters, 200 overlap), each chunk's indexText =
 *   the document title + the text, so a chunk is found by the words of its document's title;
 * - BM25 over indexText and the title field (boost 2);
 * - the safe hybrid when an embedder is given (the leg check benches a weak dense leg), BM25 alone
 *   without one (PRESETS.docChatBm25);
 * - answer (docChatAnswer, options of ask()): the retrieval query drops the question's interrogative
 *   words (questionWords: false); the extractive answerer reads the top 5 chunks and answers with one
 *   unit; a unit whose chunk lacks an identifier the question names scores 0.6x (entityMismatch), one
 *   whose chunk lacks a key noun of the question ("the probation period") 0.5x (keyMismatch);
 *   the answer bar (threshold) 0.4 and not-found below retrieval evidence 0.075 (issue 27, docs/docchat.md "Three outcomes").
 * Chosen on the tuning half of examples/corpus/split.json only, by the procedure in
 * tests/bench/lib/docchat-select.mjs (the retrieval candidate with the best MRR@10, then the
 * abstention pair with the best SQuAD2-style F1 with at most 5% wrong abstentions), cross-validated
 * in 3 folds inside the tuning half (docs/docchat.md).
 * @type {Readonly<{docChat: object, docChatBm25: object, docChatAnswer: object}>}
 */
export const PRESETS = deepFreeze({
  docChat: {
    chunker: { context: { template: '{title}', separator: '\n' } },
    indexes: { bm25: { fields: [{ name: 'text', boost: 1 }, { name: 'title', boost: 2 }] }, dense: {} },
    retrieval: { k: 10 },
  },
  docChatBm25: {
    chunker: { context: { template: '{title}', separator: '\n' } },
    indexes: { bm25: { fields: [{ name: 'text', boost: 1 }, { name: 'title', boost: 2 }] } },
    retrieval: { k: 10 },
  },
  // Options of ask() (web/src/answer/ask.js) that go with the doc-chat configs.
  docChatAnswer: { answerChunks: 5, threshold: 0.4, minEvidence: 0.075, maxSentences: 1, entityMismatch: 0.6, keyMismatch: 0.5, questionWords: false },
});

function deepFreeze(o) {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v);
  return Object.freeze(o);
}
