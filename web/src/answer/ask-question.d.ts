import type { Collection, CollectionFilter } from '../pipeline/collection.js';
import type { LlmClient } from '../llm.js';
import type { WordNeighbours } from '../retrieve/expansion.js';
export interface AskCitation { n: number; docId: string; chunkId: string; start: number; end: number; text: string }
export interface AskHit { docId: string; chunkId: string; start: number; end: number; score: number; text: string }
/** A chunk read, shown when no unit answers (outcome 'passages'); best: its best unit as a span of the document. */
export interface AskPassage extends AskHit { best: { start: number; end: number; text: string } | null }
/** The retrieval evidence below which ask() answers 'not-found' (default of options.minEvidence). */
export const MIN_EVIDENCE: number;
export interface AskResult {
  question: string;
  /** what was retrieved with: the question, or its follow-up rewrite; a product code typed without its hyphen ("hx9") as the documents write it ("hx-9") */
  query: string;
  answer: string;
  /** 'answer': a cited unit (or the LLM's answer); 'passages': the closest passages, no claim; 'not-found': retrieval found nothing matching */
  outcome: 'answer' | 'passages' | 'not-found';
  /** outcome !== 'answer' */
  abstained: boolean;
  /** IDF-weighted share of the question's terms found in the chunks read, in [0, 1] (0 without hits) */
  evidence: number;
  /** extractive answers to yes/no questions: what the cited unit states ('unclear': quoted without Yes/No); else null */
  polarity: 'yes' | 'no' | 'unclear' | null;
  mode: 'extractive' | 'llm';
  citations: AskCitation[];
  /** outcome 'passages' only (else []): the chunks read with their best unit */
  passages: AskPassage[];
  hits: AskHit[];
  /** the question's words no document uses (unmatchedWords); null when the collection cannot tell (no BM25 index in this thread) */
  unmatched: string[] | null;
  /** present only when options.clarify is set */
  clarification?: AskClarification;
  /** present only when the collection's config has retrieval.llmExpansion: the LLM's passage (a search query, never an answer) and what was searched */
  expansion?: { mode: 'hyde' | 'query2doc'; passage: string; searched: string };
}
export interface AskInterpretation {
  question: string;
  /** the shown chunks supporting this reading */
  chunkIds: string[];
  /** 'answer-each' only */
  answer?: string;
  abstained?: boolean;
  citations?: AskCitation[];
}
export interface AskClarification {
  /** null: the LLM's reply did not parse (see error); the question was answered as asked */
  ambiguous: boolean | null;
  mode: 'ask' | 'answer-each';
  interpretations: AskInterpretation[];
  rejected: Array<{ question: string; cited: unknown[]; reason: string }>;
  error: string | null;
}
export interface AskOptions {
  k?: number; answerChunks?: number; threshold?: number; maxSentences?: number;
  /** retrieval evidence in [0, 1] below which the outcome is 'not-found' (default MIN_EVIDENCE) */
  minEvidence?: number;
  /** score factor in [0, 1] for a unit whose chunk lacks an identifier the question names (default 1) */
  entityMismatch?: number;
  /** score factor in [0, 1] for a unit whose chunk lacks a key term of the question ("the probation period"; default 1) */
  keyMismatch?: number;
  /** score factor in [0, 1] for a unit that names another identifier in place of one the question names ("DL-7" for "HX-9"; default 1) */
  entityConflict?: number;
  /** score factor in [0, 1] for a unit lacking what the question asks for (a name, a number, a date; default 0.6) */
  typeMismatch?: number;
  /** keep the question's interrogative and function words in the retrieval query (default true); false retrieves with questionQuery() */
  questionWords?: boolean;
  history?: Array<{ role: 'user' | 'assistant'; content: string }>;
  /** an LlmClient, or an object with its answer (required), rewriteQuery, clarify and expandQuery methods */
  llm?: LlmClient | AskLlm; onText?: (delta: string) => void; signal?: AbortSignal; filter?: CollectionFilter;
  /** query clarification before answering (needs llm); default false */
  clarify?: false | 'ask' | 'answer-each';
}
/** The LlmClient methods ask() calls (answer always; rewriteQuery for follow-ups, clarify for options.clarify, expandQuery for retrieval.llmExpansion). */
export type AskLlm = Pick<LlmClient, 'answer'> & Partial<Pick<LlmClient, 'rewriteQuery' | 'clarify' | 'expandQuery'>>;
export function ask(collection: Collection, question: string, options?: AskOptions): Promise<AskResult>;
export function isFollowUp(question: string, history: Array<{ role: 'user' | 'assistant'; content: string }>): boolean;
export function rewriteFollowUp(question: string, history: Array<{ role: 'user' | 'assistant'; content: string }>): string;
/** The retrieval query of a question: its interrogative and function words (and contractions of them) removed; the question itself when nothing else is left. */
export function questionQuery(question: string): string;
/** The content words of `text` no document of the collection uses (its BM25 analyzer and document frequencies); null without a BM25 index in this thread. */
export function unmatchedWords(collection: Collection | { bm25: unknown }, text: string): string[] | null;
/** For each word of `text` no document uses, the nearest words of a static model's word table that the documents use (offered to the user, not searched with). */
export function suggestWords(collection: Collection, text: string, options: { words: WordNeighbours; perWord?: number; minSimilarity?: number }): Array<{ word: string; suggestions: Array<{ word: string; similarity: number }> }> | null;
export function documentTitle(text: string, name: string): string;
