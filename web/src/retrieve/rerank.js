// @ts-check
// The item helpers rerankers share. The ONNX cross-encoder is in cross-encoder.js (reached through the
// `ragwasm/onnx` entry); the LLM reranker (createLlmReranker) in llm/rerank.js (the `ragwasm/llm` entry).
import { invalid } from '../core/validate.js';

/** Most items one reranker call takes. @internal */
export const MAX_PASSAGES = 1 << 20;

/** The text of a rerank item: a string, or an object's `text` string. @internal */
export function itemText(item, i) {
  if (typeof item === 'string') return item;
  if (item !== null && typeof item === 'object' && typeof item.text === 'string') return item.text;
  throw invalid(`items[${i}]`, 'a string or an object with a string `text`', item);
}
