/** A pooled (question, passage) pair as parsePool returns it. */
export interface PoolPair { questionId: string; question: string; chunkId: string; docId: string; text: string }
/** `questionId + '\t' + chunkId`: the key of a pair in a grades object. */
export function pairKey(questionId: string, chunkId: string): string;
/** poolCandidates' output and its questions -> pool JSON lines (what `ragwasm label --pool-only` writes). */
export function formatPool(input: { questions: Array<{ id: string; text: string }>; pool: Record<string, Array<{ id: string; docId: string; text: string; bestRank?: number; runs?: string[] }>> }): string;
/** Pool JSON lines -> pairs in file order. @throws RagwasmError PARSE_ERROR naming the line. */
export function parsePool(text: string): PoolPair[];
/** Human grades (pairKey -> 0..3) -> TREC qrels text; ungraded pairs left out. */
export function gradedQrels(pool: PoolPair[], grades: Record<string, number>, options?: { level?: 'doc' | 'chunk' }): string;
/** Human grades -> labels JSONL for `ragwasm judge --labels` (context_relevance). */
export function gradedLabels(pool: PoolPair[], grades: Record<string, number>): string;
/** A pool and chunk-level qrels -> judge-grid items {id, question, passage, label}. */
export function poolLabels(pool: PoolPair[], qrels: Map<string, Map<string, number>> | Record<string, Record<string, number>>): Array<{ id: string; question: string; passage: string; label: number }>;
