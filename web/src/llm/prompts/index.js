// @ts-check
// The built-in prompt templates, one module each, imported statically so every bundler includes them
// (no fs or fetch at run time).
import answer_grounded from './answer_grounded.js';
import metadata_extract from './metadata_extract.js';
import chunk_context from './chunk_context.js';
import document_summary from './document_summary.js';
import query_rewrite from './query_rewrite.js';
import judge_context_relevance from './judge_context_relevance.js';
import judge_groundedness from './judge_groundedness.js';
import judge_answer_relevance from './judge_answer_relevance.js';
import judge_answer_correctness from './judge_answer_correctness.js';
import claim_split from './claim_split.js';
import question_generate from './question_generate.js';
import query_clarify from './query_clarify.js';
import query_expand from './query_expand.js';

export const BUILTIN_PROMPTS = Object.freeze({ answer_grounded, metadata_extract, chunk_context, document_summary, query_rewrite, judge_context_relevance, judge_groundedness, judge_answer_relevance, judge_answer_correctness, claim_split, question_generate, query_clarify, query_expand });
