export const NO_ANSWER_TEXT: string;
export const PASSAGES_TEXT: string;
export interface ExtractiveUnit { chunkIndex: number; chunkId: string; start: number; end: number; text: string; score: number; citation: number;
  kind: 'sentence' | 'list-item' | 'table-row' }
export interface ExtractiveAnswer {
  answered: boolean;
  text: string;
  citations: string[];
  bestScore: number;
  questionType: 'other' | 'person' | 'number' | 'date' | 'yes-no';
  /** what the first unit states, for an answered yes/no question; null otherwise */
  polarity: 'yes' | 'no' | 'unclear' | null;
  /** IDF-weighted share of the question's terms found in the chunks read, in [0, 1] */
  evidence: number;
  sentences: ExtractiveUnit[];
  /** the best unit of each chunk read that has one (chunk order, citation 0) */
  chunkBest: ExtractiveUnit[];
}
export function extractiveAnswer(question: string, chunks: Array<{ id: string; text: string; score?: number; context?: string }>,
  options?: { maxSentences?: number; maxChunks?: number; threshold?: number; headerWeight?: number; typeMismatch?: number;
    entityMismatch?: number; keyMismatch?: number; entityConflict?: number; yesNoPrefix?: boolean; noAnswerText?: string }): ExtractiveAnswer;
export function answerScores(question: string, chunks: Array<{ text: string; context?: string }>,
  options?: { headerWeight?: number; typeMismatch?: number; entityMismatch?: number; keyMismatch?: number; entityConflict?: number }): number[];
export interface AnswerUnitFeatures {
  chunkIndex: number; start: number; end: number; text: string; kind: 'sentence' | 'list-item' | 'table-row';
  score: number; cover: number; unitCover: number; termShare: number; bigramShare: number; keyShare: number; entityShare: number;
  typeOk: boolean; entitiesOk: boolean; keysOk: boolean; position: number; unitTerms: number; missingShare: number;
}
export function answerUnitFeatures(question: string, chunks: Array<{ text: string; context?: string }>,
  options?: { maxChunks?: number; headerWeight?: number; typeMismatch?: number; entityMismatch?: number; keyMismatch?: number; entityConflict?: number }): AnswerUnitFeatures[];
