// @ts-check
// Named pipeline configs exported by the library. PRESETS.docChat is what doc chat (web/demo/chat.html)
// and `ragwasm ask` use: chosen on the tuning half of examples/corpus/split.json only and reported on
// both halves by `npm run bench -- docchat` (docs/docchat.md has the table and what was tried).

const DOC_CHAT_CHUNKER = { context: { template: '{title}', separator: '\n' } };
const DOC_CHAT_BM25 = { bm25: { fields: [{ name: 'text', boost: 1 }, { name: 'title', boost: 2 }] } };

/**
 * Doc chat over a user's markdown / text / PDF / HTML / DOCX files:
 * - chunker: the library's default (recursive, 1000 characters, 200 overlap), each chunk's indexText =
 *   the document title + the text, so a chunk is found by the words of its document's title;
 * - BM25 over indexText and the title field (boost 2), nothing else: PRESETS.docChat needs no model
 *   file (issue 27: on both question sets the static model's dense leg is benched by the leg check, so
 *   the hybrid returned exactly BM25's hits, and the model was 95 % of the page's bytes). docChatBm25
 *   is the same config under its old name;
 * - docChatHybrid (opt-in): + the dense leg of an embedder (the static model by default) with the safe
 *   hybrid fusion (the leg check benches a weak dense leg);
 * - docChatNeural (with a neural sentence encoder the user chose, e.g. createOnnxEmbedder('bge-small-en-v1.5')):
 *   BM25 + the dense leg, convex min-max fusion 0.5 / 0.5, no leg check (the leg check's probes are
 *   sentences copied from the passages, which favour BM25: it benched a real encoder, Universal Sentence
 *   Encoder lite, whose fused ranking found more evidence). Chosen on the tuning half of the own-words set
 *   with USE lite, the one real encoder reachable from the build machine (tests/bench/lib/docchat-neural-study.mjs);
 * - docChatExpansion (opt-in): BM25 + query expansion from the static model's word neighbours
 *   (retrieval.expansion): each query word no document uses adds its 2 nearest words with cosine
 *   >= 0.65 that the documents do use, at weight 1 x similarity. Chosen on the tuning halves of both
 *   question sets; it did not beat BM25 alone on the paraphrased questions of the reporting halves,
 *   so it is not the default (`npm run bench -- docchat`, docs/docchat.md);
 * - answer (docChatAnswer, options of ask()): the retrieval query drops the question's interrogative and function
 *   words (questionWords: false); the extractive answerer reads the top 5 chunks and answers with one
 *   unit; a unit whose chunk lacks an identifier the question names scores 0.6x (entityMismatch), one
 *   whose chunk lacks a key noun of the question ("the probation period") 0.5x (keyMismatch), one that names
 *   another identifier in place of the question's ("Wexley Ferry" for "Ghent", "DL-7" for "HX-9") is not
 *   lowered (entityConflict 1: at 0.5 it read "PTO" as another identifier and quoted the sick-days sentence
 *   for a PTO question under a small chunker; docs/docchat.md), one lacking what the question asks for (a name for "who" / "which company", a number, a
 *   date) 0.5x (typeMismatch); the answer bar (threshold) 0.45 and not-found below retrieval evidence 0.075
 *   (issue 27, docs/docchat.md "Three outcomes").
 * Chosen on the tuning half of examples/corpus/split.json only, by the procedure in
 * tests/bench/lib/docchat-select.mjs (the retrieval candidate with the best MRR@10, then the
 * abstention pair with the best SQuAD2-style F1 with at most 5% wrong abstentions), cross-validated
 * in 3 folds inside the tuning half (docs/docchat.md).
 * @type {Readonly<{docChat: object, docChatBm25: object, docChatHybrid: object, docChatNeural: object, docChatExpansion: object, docChatAnswer: object}>}
 */
export const PRESETS = deepFreeze({
  docChat: { chunker: DOC_CHAT_CHUNKER, indexes: DOC_CHAT_BM25, retrieval: { k: 10 } },
  docChatBm25: { chunker: DOC_CHAT_CHUNKER, indexes: DOC_CHAT_BM25, retrieval: { k: 10 } },
  docChatHybrid: { chunker: DOC_CHAT_CHUNKER, indexes: { ...DOC_CHAT_BM25, dense: {} }, retrieval: { k: 10 } },
  docChatNeural: {
    chunker: DOC_CHAT_CHUNKER,
    indexes: { ...DOC_CHAT_BM25, dense: {} },
    retrieval: { k: 10, fusion: { mode: 'convex', normalization: 'minmax', weights: [0.5, 0.5], legCheck: false } },
  },
  docChatExpansion: {
    chunker: DOC_CHAT_CHUNKER,
    indexes: DOC_CHAT_BM25,
    retrieval: { k: 10, expansion: { source: 'static', perTerm: 2, minSimilarity: 0.65, weight: 1, unmatchedOnly: true } },
  },
  // Options of ask() (web/src/answer/ask-question.js) that go with the doc-chat configs.
  docChatAnswer: { answerChunks: 5, threshold: 0.45, minEvidence: 0.075, maxSentences: 1, entityMismatch: 0.6, keyMismatch: 0.5, entityConflict: 1, typeMismatch: 0.5, questionWords: false },
});

function deepFreeze(o) {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v);
  return Object.freeze(o);
}
