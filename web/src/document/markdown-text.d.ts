/** Markdown -> plain text (the `chunker.preprocess: "markdown-to-text"` step): markup removed, lines and paragraph breaks kept. */
export function markdownToText(markdown: string): string;
