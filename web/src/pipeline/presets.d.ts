export const PRESETS: Readonly<{
  /** the default (recursive) chunks with the document title in indexText, BM25 title boost 2, safe hybrid (needs an embedder) */
  docChat: object;
  /** docChat without the dense index */
  docChatBm25: object;
  /** ask() options that go with the doc-chat configs */
  docChatAnswer: { answerChunks: number; threshold: number; minEvidence: number; maxSentences: number; entityMismatch: number; keyMismatch: number; questionWords: boolean };
}>;
