export const PRESETS: Readonly<{
  /** the default (recursive) chunks with the document title in indexText, BM25 with title boost 2; no model file */
  docChat: object;
  /** the same config as docChat (its name before issue 27) */
  docChatBm25: object;
  /** docChat + the dense leg (the static model by default) with the safe hybrid fusion */
  docChatHybrid: object;
  /** docChat + the dense leg of a neural encoder you give (createOnnxEmbedder by name): convex fusion 0.5 / 0.5, no leg check */
  docChatNeural: object;
  /** docChat + query expansion from the static model's word neighbours (retrieval.expansion) */
  docChatExpansion: object;
  /** ask() options that go with the doc-chat configs */
  docChatAnswer: { answerChunks: number; threshold: number; minEvidence: number; maxSentences: number; entityMismatch: number; keyMismatch: number; entityConflict: number; typeMismatch: number; questionWords: boolean };
}>;
