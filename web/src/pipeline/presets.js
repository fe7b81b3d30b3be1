// Named pipeline configs exported by the library. PRESETS.docChat is what doc chat (web/demo/chat.html)
// and `ragwasm ask` use: chosen on the tuning half of examples/corpus/split.json only and reported on
// both halves by `npm run bench -- docchat` (docs/docchat.md has the table and what was tried).

/**
 * Doc chat over a user's markdown / text / PDF / HTML / DOCX files:
 * - chunker: markdown-header sections (h1..h3 start a section; a longer section is split at 800
 *   characters), each chunk's indexText = the document title + its header path ("Leave > Sick leave")
 *   + the text, so a chunk is found by the words of the headings above it;
 * - BM25 over indexText and the title field (boost 2);
 * - the safe hybrid when an embedder is given (the leg check benches a weak dense leg), BM25 alone
 *   without one (PRESETS.docChatBm25);
 * - answer (docChatAnswer, options of ask()): the retrieval query drops the question's interrogative
 *   words (questionWords: false); the extractive answerer reads the top 5 chunks and answers with one
 *   unit; a unit whose chunk lacks an identifier the question names scores 0.6x (entityMismatch);
 *   threshold 0.28 (with entityMismatch: the largest mean F1 over all tuning questions with at most 5% wrong abstentions).
 * @type {Readonly<{docChat: object, docChatBm25: object, docChatAnswer: object}>}
 */
export const PRESETS = deepFreeze({
  docChat: {
    chunker: {
      strategy: 'markdown-header', chunkSize: 800, splitLevels: 3,
      context: { template: '{title}', headerPath: true, separator: '\n' },
    },
    indexes: { bm25: { fields: [{ name: 'text', boost: 1 }, { name: 'title', boost: 2 }] }, dense: {} },
    retrieval: { k: 10 },
  },
  docChatBm25: {
    chunker: {
      strategy: 'markdown-header', chunkSize: 800, splitLevels: 3,
      context: { template: '{title}', headerPath: true, separator: '\n' },
    },
    indexes: { bm25: { fields: [{ name: 'text', boost: 1 }, { name: 'title', boost: 2 }] } },
    retrieval: { k: 10 },
  },
  // Options of ask() (web/src/answer/ask.js) that go with the doc-chat configs.
  docChatAnswer: { answerChunks: 5, threshold: 0.28, maxSentences: 1, entityMismatch: 0.6, questionWords: false },
});

function deepFreeze(o) {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v);
  return Object.freeze(o);
}
