// @ts-check
// JS wrappers of the C++ judge reply parsers (src/judge/reply_parser.h) and of the abstention check
// and self-consistency aggregation. Parsing happens in WASM so JS and native agree exactly.
import { RagwasmError, callWasm } from '../core/errors.js';
import { encodeText } from '../core/encode.js';
import { MAX_JUDGE_REPLY_BYTES } from '../core/limits.js';
import { wasm } from '../core/module.js';
import { expectArray, expectBoolean, expectEnum, expectInteger, expectNumber, expectOptions, expectString } from '../core/validate.js';

// A reply's UTF-8 bytes, refused before they are copied into WASM when over the parsers' limit.
function replyBytes(reply, name) {
  const bytes = encodeText(reply, name);
  if (bytes.length > MAX_JUDGE_REPLY_BYTES) {
    throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: ${bytes.length} bytes, the limit is ${MAX_JUDGE_REPLY_BYTES}`);
  }
  return bytes;
}

function scaleArgs(scale, name) {
  const s = expectOptions(scale, name, ['kind', 'min', 'max', 'labels', 'integerOnly', 'integer_only']);
  const kind = s.kind === undefined ? 'rating' : expectEnum(s.kind, `${name}.kind`, ['rating', 'percent', 'claims']);
  const min = s.min === undefined ? 0 : expectNumber(s.min, `${name}.min`);
  const max = s.max === undefined ? (kind === 'percent' ? 100 : 3) : expectNumber(s.max, `${name}.max`);
  const labels = s.labels === undefined ? undefined : expectArray(s.labels, `${name}.labels`, { maxLength: 64, item: (v, n) => expectString(v, n, { allowEmpty: false, maxLength: 64 }) })
    .map((l, i) => encodeText(l, `${name}.labels[${i}]`));  // UTF-8 bytes, as every string crossing into WASM
  const io = s.integerOnly ?? s.integer_only;
  const integerOnly = io === undefined ? false : expectBoolean(io, `${name}.integerOnly`);
  return { kind: kind === 'claims' ? 'rating' : kind, min, max, labels, integerOnly };
}

/**
 * Finds a judge's final score in its reply ("Rating: 2", "Score: 3/3", "85%", JSON, reasoning then score).
 * @param {string} reply the model's reply text
 * @param {{kind?: 'rating'|'percent', min?: number, max?: number, labels?: string[], integerOnly?: boolean}} [scale]
 *   default rating 0-3; percent is 0-100 ("0.85" without % means 85)
 * @returns {{value: number, method: 'json'|'labelled'|'percent'|'fraction'|'bare', offset: number, ambiguous: boolean}}
 *   offset in UTF-16 units of the reply; ambiguous when several different labelled scores appeared (the last wins)
 * @throws {RagwasmError} PARSE_ERROR (no score, out of scale, wrong denominator), INVALID_ARGUMENT, LIMIT_EXCEEDED
 */
export function parseJudgeScore(reply, scale = {}) {
  const a = scaleArgs(scale, 'scale');
  const bytes = replyBytes(reply, 'reply');
  const m = wasm();
  return callWasm(() => m.judge_parseScore(bytes, a.kind, a.min, a.max, a.labels, a.integerOnly));
}

/**
 * Per-claim scores of a groundedness reply for claims 1..nClaims.
 * @returns {Array<{claim: number, score: number|null, evidence: string, error: string|null}>}
 *   score null (with the reason in error) for a claim the reply does not score usably
 */
export function parseClaimScores(reply, nClaims, scale = {}) {
  expectInteger(nClaims, 'nClaims', { min: 1, max: 1000 });
  const a = scaleArgs(scale, 'scale');
  const bytes = replyBytes(reply, 'reply');
  const m = wasm();
  return callWasm(() => m.judge_parseClaimScores(bytes, nClaims, a.kind, a.min, a.max, a.labels));
}

/** "key: value" lines of a metadata reply, as [key, value] pairs (keys lowercased, first value kept). */
export function parseKeyValues(reply) {
  const bytes = replyBytes(reply, 'reply');
  const m = wasm();
  return callWasm(() => m.judge_parseKeyValues(bytes));
}

/** True when an answer declines to answer from the documents ("The documents do not answer..."). */
export function isAbstention(answer) {
  const bytes = encodeText(answer, 'answer');
  const m = wasm();
  return callWasm(() => m.judge_isAbstention(bytes));
}

/**
 * Self-consistency: aggregates n samples of one judgment. null entries are unparsed samples; they
 * are counted, never treated as 0.
 * @param {Array<number|null>} scores
 * @param {'mean'|'majority'} [method='majority'] majority ties go to the smaller value
 * @returns {{value: number|null, samples: number, parsed: number, unparsed: number, spread: number, stddev: number, agreement: number}}
 */
export function aggregateScores(scores, method = 'majority') {
  expectArray(scores, 'scores', { maxLength: 10000, item: (v, n) => { if (v !== null) expectNumber(v, n); } });
  expectEnum(method, 'method', ['mean', 'majority']);
  const m = wasm();
  return callWasm(() => m.judge_aggregate(scores, method));
}

