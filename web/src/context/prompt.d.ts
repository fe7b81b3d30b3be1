// Types of ./prompt.js: the answer prompt's context step (the config's assembly section).
export interface AssemblySection {
  tokenBudget?: number;
  order?: 'score' | 'ends';
  maxChunks?: number;
  /** What is put before each chunk: nothing, the document title, or the chunker's context (its indexText before the text). */
  docContext?: 'none' | 'title' | 'chunker' | boolean;
  tokenCount?: 'estimate';
}
export const DEFAULT_ASSEMBLY: Readonly<Required<AssemblySection>>;
export function checkAssemblyRead(raw: object | undefined, answerer: string, where?: string): void;
export function answerContext<H extends { id: string; docId: string; text: string }>(collection: object | null, hits: H[],
  options?: { assembly?: AssemblySection }): { passages: Array<{ id: string; text: string }>; hits: H[]; dropped: string[]; tokensUsed: number };
