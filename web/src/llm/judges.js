// @ts-check
// LLM judges: context relevance (0-3), groundedness (claims scored 0-3 with evidence), answer
// relevance (0-3) and answer correctness (0-100% against a reference). Calls go through an LlmClient;
// replies are parsed by the C++ parsers; a reply without a usable score is counted as unparsed and
// reported, never turned into 0 or NaN.
import { RagwasmError } from '../core/errors.js';
import { wasm } from '../core/module.js';
import {
  expectArray, expectEnum, expectInteger, expectNumber, expectOptions, expectString, isInstance, isPlainObject,
} from '../core/validate.js';
import { splitSentences } from '../document/text.js';
import { LlmClient } from './client.js';
import { aggregateScores, isAbstention, parseClaimScores, parseJudgeScore } from './parse.js';
import { formatClaims, formatPassages, loadPrompt, renderPrompt } from './prompts.js';
import { allOrAbort } from './all-or-abort.js';

/** @typedef {import('./prompts.js').PromptTemplate} PromptTemplate */
/** @typedef {import('../llm.js').JudgeResult} JudgeResult */

const JUDGE_OPTIONS = ['samples', 'aggregate', 'temperature', 'maxTokens', 'prompt', 'signal', 'examples', 'claims'];

function expectClient(client) {
  if (!(isInstance(client, LlmClient))) throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: client: expected an LlmClient (createLlmClient)');
  return client;
}

function judgeOptions(options, allowed) {
  const o = expectOptions(options, 'judge options', allowed);
  const samples = o.samples === undefined ? 1 : expectInteger(o.samples, 'options.samples', { min: 1, max: 20 });
  return {
    samples,
    aggregate: o.aggregate === undefined ? 'majority' : expectEnum(o.aggregate, 'options.aggregate', ['mean', 'majority']),
    // One sample: deterministic decoding. Several: sampling, so the samples can differ.
    temperature: o.temperature === undefined ? (samples === 1 ? 0 : 0.7) : expectNumber(o.temperature, 'options.temperature', { min: 0, max: 2 }),
    maxTokens: o.maxTokens === undefined ? 512 : expectInteger(o.maxTokens, 'options.maxTokens', { min: 1, max: 100000 }),
    prompt: o.prompt,
    signal: o.signal,
    examples: o.examples,
    claims: o.claims,
    question: o.question,
  };
}

function sumUsage(results) {
  let input = 0;
  let output = 0;
  let cost = 0;
  let costKnown = true;
  for (const r of results) {
    input += r.usage?.inputTokens ?? 0;
    output += r.usage?.outputTokens ?? 0;
    if (r.cost === null || r.cost === undefined) costKnown = false;
    else cost += r.cost;
  }
  return { usage: { inputTokens: input, outputTokens: output }, cost: results.length && costKnown ? cost : (results.length ? null : 0) };
}

/** Runs a scalar-score judge `samples` times and aggregates. @internal */
async function runScoreJudge(client, template, vars, o, purpose) {
  wasm();  // the replies are parsed in WASM: NOT_INITIALIZED now, before anything is sent and paid for
  const messages = renderPrompt(template, vars);
  const scale = template.reply ?? { kind: 'rating', min: 0, max: 3 };
  // `sample` keeps the samples apart in a response cache (else a rerun would get n copies of one reply).
  // The first failed sample aborts the others (nothing more is sent or paid for).
  const calls = await allOrAbort(Array.from({ length: o.samples }, (_, sample) => sample), o.signal, (sample, signal) => client.complete(
    { messages, temperature: o.temperature, maxTokens: o.maxTokens, purpose }, { signal, sample }));
  const samples = calls.map((c) => {
    try {
      const p = parseJudgeScore(c.text, scale);
      return { score: p.value, method: p.method, ambiguous: p.ambiguous, error: null, reply: c.text };
    } catch (e) {
      if (!(e instanceof RagwasmError) || e.code !== 'PARSE_ERROR') throw e;
      return { score: null, method: null, ambiguous: false, error: e.message, reply: c.text };
    }
  });
  const agg = aggregateScores(samples.map((s) => s.score), o.aggregate);
  return {
    score: agg.value,
    scale: { kind: scale.kind, min: scale.kind === 'percent' ? 0 : scale.min, max: scale.kind === 'percent' ? 100 : scale.max },
    samples,
    unparsed: agg.unparsed,
    spread: agg.spread,
    stddev: agg.stddev,
    agreement: agg.agreement,
    prompt: { id: template.id, version: template.version },
    ...sumUsage(calls),
  };
}

async function templateFor(o, id) {
  return o.prompt ?? loadPrompt(id);
}

/**
 * Context relevance of one passage to a question, 0-3 (UMBRELA-style rubric).
 * @param {LlmClient} client
 * @param {{question: string, passage: string}} input
 * @param {{samples?: number, aggregate?: 'mean'|'majority', temperature?: number, maxTokens?: number,
 *   prompt?: PromptTemplate, examples?: Array<{question: string, passage: string, score: number}>, signal?: AbortSignal}} [options]
 *   samples (default 1, up to 20) for self-consistency; examples are few-shot graded examples
 * @returns {Promise<JudgeResult>} score null when no sample parsed (see unparsed and samples[].error)
 * @throws {RagwasmError} INVALID_ARGUMENT, and the client's HTTP/NETWORK/TIMEOUT/ABORTED/PARSE_ERROR
 */
export async function judgeContextRelevance(client, input, options = {}) {
  expectClient(client);
  const o = judgeOptions(options, JUDGE_OPTIONS.filter((k) => k !== 'claims'));
  const i = expectOptions(input, 'input', ['question', 'passage']);
  const t = await templateFor(o, 'judge_context_relevance');
  let examples = '';
  if (o.examples !== undefined) {
    expectArray(o.examples, 'options.examples', { maxLength: 20 });
    const fmt = t.example_format ?? 'Example question: {{question}}\nExample passage: {{passage}}\nScore: {{score}}\n\n';
    examples = o.examples.map((e, k) => {
      if (!isPlainObject(e)) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: options.examples[${k}]: expected {question, passage, score}`);
      const vals = {
        question: expectString(e.question, `options.examples[${k}].question`),
        passage: expectString(e.passage, `options.examples[${k}].passage`),
        score: String(expectInteger(e.score, `options.examples[${k}].score`, { min: 0, max: 3 })),
      };
      // One pass with a function: "$&" in a value stays literal and a value is never re-expanded.
      return fmt.replace(/\{\{(question|passage|score)\}\}/g, (_, name) => vals[name]);
    }).join('');
  }
  return runScoreJudge(client, t, { question: expectString(i.question, 'input.question'), passage: expectString(i.passage, 'input.passage'), examples }, o, 'judge:context_relevance');
}

/**
 * Answer relevance: does the answer address the question (not: is it true), 0-3.
 * @param {LlmClient} client
 * @param {{question: string, answer: string}} input
 */
export async function judgeAnswerRelevance(client, input, options = {}) {
  expectClient(client);
  const o = judgeOptions(options, JUDGE_OPTIONS.filter((k) => k !== 'claims' && k !== 'examples'));
  const i = expectOptions(input, 'input', ['question', 'answer']);
  const t = await templateFor(o, 'judge_answer_relevance');
  return runScoreJudge(client, t, { question: expectString(i.question, 'input.question'), answer: expectString(i.answer, 'input.answer') }, o, 'judge:answer_relevance');
}

/**
 * Answer correctness against a reference answer, 0-100 (percent).
 * Rules applied before any call (recorded in `rule`): both the reference and the answer say the
 * question is not answerable -> 100 ('both-unanswerable'); the reference states a fact but the
 * answer says it is not in the documents -> 0 ('answer-abstained').
 * @param {LlmClient} client
 * @param {{question: string, answer: string, reference: string, referenceAnswerable?: boolean}} input
 *   referenceAnswerable false marks the reference as "not answerable" whatever its wording
 */
export async function judgeAnswerCorrectness(client, input, options = {}) {
  expectClient(client);
  const o = judgeOptions(options, JUDGE_OPTIONS.filter((k) => k !== 'claims' && k !== 'examples'));
  const i = expectOptions(input, 'input', ['question', 'answer', 'reference', 'referenceAnswerable']);
  const question = expectString(i.question, 'input.question');
  const answer = expectString(i.answer, 'input.answer');
  const reference = expectString(i.reference, 'input.reference');
  const refUnanswerable = i.referenceAnswerable === false || (i.referenceAnswerable !== true && isAbstention(reference));
  const answerAbstained = isAbstention(answer);
  const t = await templateFor(o, 'judge_answer_correctness');
  const ruled = (score, rule) => ({ score, scale: { kind: 'percent', min: 0, max: 100 }, rule, samples: [], unparsed: 0, spread: 0, stddev: 0,
    agreement: 1, prompt: { id: t.id, version: t.version }, usage: { inputTokens: 0, outputTokens: 0 }, cost: 0 });
  if (refUnanswerable && answerAbstained) return ruled(100, 'both-unanswerable');
  if (!refUnanswerable && answerAbstained) return ruled(0, 'answer-abstained');
  const r = await runScoreJudge(client, t, { question, answer, reference }, o, 'judge:answer_correctness');
  return { ...r, rule: null };
}

/** Strips inline citation markers like [1] or [2][3] from an answer. */
export function stripCitations(text) {
  expectString(text, 'text');
  return text.replace(/\s*(\[\d{1,3}\])+/g, '').replace(/\s+([.,;:!?])/g, '$1').trim();
}

/**
 * Lines of a list reply: "1. claim", "2) claim", "- claim", "* claim" or plain lines; markers
 * removed, empty lines dropped; a reply that is just NONE gives [].
 * @param {string} reply
 * @returns {string[]}
 */
export function parseListReply(reply) {
  expectString(reply, 'reply');
  if (/^\s*none\.?\s*$/i.test(reply)) return [];
  return reply.split(/\r?\n/).map((l) => l.trim().replace(/^(?:\d{1,4}[.)]|[-*\u2022])\s+/, '').trim()).filter((l) => l.length > 0);
}

/**
 * Splits an answer into self-contained factual claims with the `claim_split` prompt (optional; the
 * groundedness judge splits by sentences unless told otherwise).
 * @param {LlmClient} client
 * @param {{question?: string, answer: string}} input
 * @param {{signal?: AbortSignal}} [options]
 * @returns {Promise<{claims: string[], usage: object, cost: number|null}>}
 */
export async function splitClaims(client, input, options = {}) {
  expectClient(client);
  const i = expectOptions(input, 'input', ['question', 'answer']);
  const o = expectOptions(options, 'splitClaims options', ['signal']);
  const t = await loadPrompt('claim_split');
  const messages = renderPrompt(t, { question: i.question === undefined ? '(not given)' : expectString(i.question, 'input.question'),
    answer: expectString(i.answer, 'input.answer') });
  const r = await client.complete({ messages, temperature: 0, maxTokens: 512, purpose: 'judge:claim_split' }, { signal: o.signal });
  return { claims: parseListReply(r.text), usage: r.usage, cost: r.cost };
}

/**
 * Groundedness: the answer is split into claims (by default its sentences, citation markers
 * removed; `claims: 'llm'` asks the model with the claim_split prompt; or pass the claims), each
 * scored 0-3 against all retrieved passages with quoted evidence.
 * score = mean of the parsed claim scores / 3, in [0, 1]; null when no claim was scored.
 * An abstaining answer ("the documents do not answer") is not judged: abstained true, score null.
 * @param {LlmClient} client
 * @param {{answer: string, contexts: Array<{id?: string, text: string}>}} input
 * @param {{claims?: string[]|'sentences'|'llm', question?: string, temperature?: number, maxTokens?: number,
 *   prompt?: PromptTemplate, signal?: AbortSignal}} [options] question is passed to the claim splitter
 */
export async function judgeGroundedness(client, input, options = {}) {
  expectClient(client);
  const o = judgeOptions(options, ['temperature', 'maxTokens', 'prompt', 'signal', 'claims', 'question']);
  const i = expectOptions(input, 'input', ['answer', 'contexts']);
  const answer = expectString(i.answer, 'input.answer');
  expectArray(i.contexts, 'input.contexts', { maxLength: 1000 });
  const t = await templateFor(o, 'judge_groundedness');
  const base = { prompt: { id: t.id, version: t.version }, scale: { kind: 'rating', min: 0, max: 3 } };
  if (isAbstention(answer)) {
    return { ...base, score: null, abstained: true, claims: [], unparsed: 0, usage: { inputTokens: 0, outputTokens: 0 }, cost: 0, reply: null };
  }
  let claims;
  let splitUsage = null;
  if (o.claims === 'llm') {
    const s = await splitClaims(client, { answer, ...(o.question !== undefined ? { question: o.question } : {}) }, { signal: o.signal });
    claims = s.claims.slice(0, 1000);
    splitUsage = s;
  } else if (o.claims === undefined || o.claims === 'sentences') {
    claims = splitSentences(stripCitations(answer)).map((s) => s.text).filter((s) => /[\p{L}\p{N}]/u.test(s));
  } else {
    claims = expectArray(o.claims, 'options.claims', { maxLength: 1000, item: (v, n) => expectString(v, n, { allowEmpty: false }) });
  }
  if (claims.length === 0) {
    return { ...base, score: null, abstained: false, claims: [], unparsed: 0, usage: { inputTokens: 0, outputTokens: 0 }, cost: 0, reply: null };
  }
  const messages = renderPrompt(t, { context: formatPassages(i.contexts), claims: formatClaims(claims) });
  const c = await client.complete({ messages, temperature: o.temperature, maxTokens: Math.max(o.maxTokens, 64 * claims.length), purpose: 'judge:groundedness' }, { signal: o.signal });
  const parsed = parseClaimScores(c.text, claims.length, t.reply ?? { kind: 'rating', min: 0, max: 3 });
  const scored = parsed.filter((p) => p.score !== null);
  const mean = scored.length ? aggregateScores(scored.map((p) => p.score), 'mean').value : null;
  const max = t.reply?.max ?? 3;
  return {
    ...base,
    score: mean === null ? null : mean / max,
    abstained: false,
    claims: parsed.map((p, k) => ({ text: claims[k], score: p.score, evidence: p.evidence, error: p.error })),
    unparsed: parsed.length - scored.length,
    usage: { inputTokens: (c.usage.inputTokens ?? 0) + (splitUsage?.usage.inputTokens ?? 0), outputTokens: (c.usage.outputTokens ?? 0) + (splitUsage?.usage.outputTokens ?? 0) },
    // Unknown (unpriced) cost stays null, never 0.
    cost: c.cost === null || (splitUsage && splitUsage.cost === null) ? null : c.cost + (splitUsage?.cost ?? 0),
    reply: c.text,
  };
}

/**
 * The RAG triad of one answered question (TruLens): context relevance (the mean 0-3 grade of the
 * retrieved passages / 3), answer relevance (0-3 / 3) and groundedness (judgeGroundedness, sentence
 * claims), each in [0, 1]; null when the judge could not score it (no passages, an unparsed reply, an
 * abstaining answer for groundedness). One call per passage, one for answer relevance, one for groundedness.
 * @param {LlmClient} client the judge
 * @param {{question: string, answer: string, passages: Array<{id?: string, text: string}>}} input
 * @param {{signal?: AbortSignal}} [options]
 * @returns {Promise<{contextRelevance: number|null, answerRelevance: number|null, groundedness: number|null,
 *   passageScores: Array<number|null>, cost: number|null}>}
 * @throws {RagwasmError} INVALID_ARGUMENT, and the client's HTTP/NETWORK/TIMEOUT/ABORTED/PARSE_ERROR
 */
export async function judgeRagTriad(client, input, options = {}) {
  expectClient(client);
  const o = expectOptions(options, 'judgeRagTriad options', ['signal']);
  const i = expectOptions(input, 'input', ['question', 'answer', 'passages']);
  const question = expectString(i.question, 'input.question');
  const answer = expectString(i.answer, 'input.answer');
  expectArray(i.passages, 'input.passages', { maxLength: 1000 });
  const passages = i.passages.map((p, k) => ({ ...(p?.id !== undefined ? { id: String(p.id) } : {}), text: expectString(p?.text, `input.passages[${k}].text`) }));
  const co = o.signal === undefined ? {} : { signal: o.signal };
  const rel = [];
  for (const p of passages) rel.push(await judgeContextRelevance(client, { question, passage: p.text }, co));
  const ar = await judgeAnswerRelevance(client, { question, answer }, co);
  const gr = passages.length ? await judgeGroundedness(client, { answer, contexts: passages }, co) : null;
  const scored = rel.map((r) => r.score).filter((v) => v !== null);
  const costs = [...rel, ar, ...(gr ? [gr] : [])].map((r) => r.cost);
  return {
    contextRelevance: scored.length ? scored.reduce((s, v) => s + v, 0) / scored.length / 3 : null,
    answerRelevance: ar.score === null ? null : ar.score / 3,
    groundedness: gr ? gr.score : null,
    passageScores: rel.map((r) => r.score),
    cost: costs.some((c) => c === null) ? null : costs.reduce((s, c) => s + c, 0),
  };
}

/** Names of the judges for CLIs and calibration. */
export const JUDGES = Object.freeze({
  context_relevance: judgeContextRelevance,
  answer_relevance: judgeAnswerRelevance,
  answer_correctness: judgeAnswerCorrectness,
  groundedness: judgeGroundedness,
});
