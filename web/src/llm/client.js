// @ts-check
// LlmClient: one configured endpoint (provider, base URL, model, key) with timeouts, retries
// (exponential backoff with jitter, Retry-After honoured), a concurrency limit, cost accounting,
// an opt-in response cache and a ledger of every request sent. The API key stays in this object's
// private field: it is sent only in the auth header and is scrubbed from every error and ledger entry.
// Requests go only to the configured URL: redirects are never followed (a 3xx is an HTTP error
// naming its Location), and a reply larger than maxReplyBytes is cut off with LIMIT_EXCEEDED.
import { RagwasmError } from '../core/errors.js';
import {
  expectArray, expectEnum, expectFunction, expectInteger, hasMethod, expectNumber, expectOptions, expectString, invalid, isArray, isInstance, isPlainObject,
} from '../core/validate.js';
import { ResponseCache, canonicalJson, sha256Hex } from './cache.js';
import { PriceTable } from './cost.js';
import { RequestLedger } from './ledger.js';
// The steps behind the client's methods check their client with check.js (never import this file).
import { registerLlmClient } from './check.js';
import { generateAnswer } from './answer.js';
import { clarifyQuestion } from './clarify.js';
import { llmChunkContexts, rewriteQuery, summarizeDocument } from './enrich.js';
import { expandQuery } from './expand.js';
import { definePrompt } from './prompts.js';
import { PROVIDERS, StreamReader, buildBody, readReply } from './providers.js';
import { endpointFor } from './url.js';
import { parseSse, readerIterable } from './sse.js';

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504, 529]);

const CLIENT_OPTIONS = ['provider', 'baseUrl', 'model', 'apiKey', 'headers', 'timeoutMs', 'maxRetries', 'retryBaseMs',
  'retryMaxMs', 'maxRetryAfterMs', 'concurrency', 'prices', 'cache', 'ledger', 'fetch', 'random', 'anthropicVersion',
  'streamUsage', 'maxReplyBytes'];
/** Default cap on one reply's body (16 MiB): a chat answer is kilobytes; this stops a runaway server. */
export const DEFAULT_MAX_REPLY_BYTES = 16 * 1024 * 1024;
const ERROR_DETAIL_BYTES = 64 * 1024;  // enough of an error body for the 300-character message
const REQUEST_KEYS = ['messages', 'maxTokens', 'temperature', 'stop', 'seed', 'purpose'];

/**
 * Creates a client for one endpoint.
 * @example
 * const llm = createLlmClient({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
 * const r = await llm.complete({ messages: [{ role: 'user', content: 'Hi' }] });
 * @param {object} options
 * @param {'openai'|'anthropic'} options.provider wire protocol (openai = any Chat Completions server)
 * @param {string} options.baseUrl e.g. 'https://api.openai.com/v1', 'https://api.anthropic.com'
 * @param {string} options.model model name sent to the server
 * @param {string} [options.apiKey] kept in memory only; never logged, never in errors or the ledger
 * @param {Record<string,string>} [options.headers] extra request headers
 * @param {number} [options.timeoutMs=60000] per attempt, 1..3,600,000
 * @param {number} [options.maxRetries=3] retries after the first attempt (429, 5xx, 408, network errors)
 * @param {number} [options.retryBaseMs=500] first backoff; attempt k waits base*2^(k-1), capped, times a jitter in [0.5, 1)
 * @param {number} [options.retryMaxMs=30000] backoff cap
 * @param {number} [options.maxRetryAfterMs=60000] a Retry-After longer than this fails at once (HTTP) instead of waiting
 * @param {number} [options.concurrency=4] requests in flight at once, 1..256
 * @param {PriceTable|Record<string, import('./cost.js').Price>} [options.prices] cost per model
 * @param {ResponseCache} [options.cache] opt-in response cache (default: none)
 * @param {RequestLedger} [options.ledger] where requests are recorded (default: a new ledger)
 * @param {typeof fetch} [options.fetch] fetch implementation (default globalThis.fetch)
 * @param {() => number} [options.random] jitter source in [0, 1) (default Math.random)
 * @param {string} [options.anthropicVersion='2023-06-01']
 * @param {boolean} [options.streamUsage=true] ask OpenAI-compatible servers for usage in streams
 * @param {number} [options.maxReplyBytes=16777216] largest reply body read (bytes, streamed or not; 1..2^31-1);
 *   a longer reply is cancelled with LIMIT_EXCEEDED (not retried)
 * @returns {LlmClient}
 * @throws {RagwasmError} INVALID_ARGUMENT
 */
/**
 * A client's counters. `cost` is what the calls sent cost: null (unknown) as soon as one sent call had no
 * price (its model not in the price table, or no token usage in the reply), never 0 for unpriced calls;
 * `pricedCost` sums the calls that had a price, `unpricedCalls` counts the others. Cache hits cost nothing.
 */
function newStats() {
  return {
    calls: 0, httpAttempts: 0, retries: 0, cacheHits: 0, failures: 0, inputTokens: 0, outputTokens: 0, pricedCost: 0, unpricedCalls: 0,
    get cost() { return this.unpricedCalls > 0 ? null : this.pricedCost; },
  };
}

export function createLlmClient(options) {
  return new LlmClient(options);
}

export class LlmClient {
  #apiKey;
  #headers;
  #secrets = [];  // values of credential-like extra headers, scrubbed like the key

  constructor(options) {
    const o = expectOptions(options, 'createLlmClient options', CLIENT_OPTIONS);
    if (options === undefined) throw invalid('createLlmClient options', 'an options object', options);
    this.provider = expectEnum(o.provider, 'options.provider', PROVIDERS);
    this.baseUrl = expectString(o.baseUrl, 'options.baseUrl', { allowEmpty: false });
    const endpoint = endpointFor(this.provider, this.baseUrl);  // query kept, credentials refused (url.js)
    this.url = endpoint.url;
    this.host = endpoint.host;
    this.model = expectString(o.model, 'options.model', { allowEmpty: false });
    if (o.apiKey !== undefined && o.apiKey !== null && o.apiKey !== '') {
      if (typeof o.apiKey !== 'string') throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: options.apiKey: expected a string');
      this.#apiKey = o.apiKey;
    }
    if (o.headers !== undefined && (!isPlainObject(o.headers) || Object.values(o.headers).some((v) => typeof v !== 'string'))) {
      throw invalid('options.headers', 'an object of strings', o.headers);
    }
    // Private like the key: an extra header may carry a credential (e.g. Azure's api-key).
    this.#headers = { ...(o.headers ?? {}) };
    for (const [name, value] of Object.entries(this.#headers)) {
      if (/auth|api[-_]?key|token|secret|cookie/i.test(name) && value.length >= 4) this.#secrets.push(value);
    }
    this.timeoutMs = o.timeoutMs === undefined ? 60000 : expectInteger(o.timeoutMs, 'options.timeoutMs', { min: 1, max: 3600000 });
    this.maxRetries = o.maxRetries === undefined ? 3 : expectInteger(o.maxRetries, 'options.maxRetries', { min: 0, max: 20 });
    this.retryBaseMs = o.retryBaseMs === undefined ? 500 : expectNumber(o.retryBaseMs, 'options.retryBaseMs', { min: 0 });
    this.retryMaxMs = o.retryMaxMs === undefined ? 30000 : expectNumber(o.retryMaxMs, 'options.retryMaxMs', { min: 0 });
    this.maxRetryAfterMs = o.maxRetryAfterMs === undefined ? 60000 : expectNumber(o.maxRetryAfterMs, 'options.maxRetryAfterMs', { min: 0 });
    this.concurrency = o.concurrency === undefined ? 4 : expectInteger(o.concurrency, 'options.concurrency', { min: 1, max: 256 });
    this.prices = isInstance(o.prices, PriceTable) ? o.prices : new PriceTable(o.prices ?? {});
    if (o.cache !== undefined && !(isInstance(o.cache, ResponseCache)) && !(o.cache && typeof o.cache.get === 'function' && typeof o.cache.set === 'function')) {
      throw invalid('options.cache', 'a ResponseCache', o.cache);
    }
    this.cache = o.cache ?? null;
    if (this.cache && !globalThis.crypto?.subtle) {
      // Cache keys are SHA-256 digests; browsers expose crypto.subtle only in secure contexts.
      throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: options.cache needs crypto.subtle (a secure context: https or localhost)');
    }
    if (o.ledger !== undefined && !(isInstance(o.ledger, RequestLedger))) throw invalid('options.ledger', 'a RequestLedger', o.ledger);
    this.ledger = o.ledger ?? new RequestLedger();
    this.fetch = o.fetch === undefined ? globalThis.fetch?.bind(globalThis) : expectFunction(o.fetch, 'options.fetch');
    if (!this.fetch) throw new RagwasmError('UNSUPPORTED_ENVIRONMENT', 'ragwasm: no fetch() in this environment; pass options.fetch');
    this.random = o.random === undefined ? Math.random : expectFunction(o.random, 'options.random');
    this.anthropicVersion = o.anthropicVersion ?? '2023-06-01';
    this.streamUsage = o.streamUsage ?? true;
    this.maxReplyBytes = o.maxReplyBytes === undefined ? DEFAULT_MAX_REPLY_BYTES
      : expectInteger(o.maxReplyBytes, 'options.maxReplyBytes', { min: 1, max: 2 ** 31 - 1 });
    this.active = 0;
    this.queue = [];
    this.stats = newStats();
    registerLlmClient(this);
  }

  /** True when an API key is set (the key itself is not readable). */
  get hasApiKey() { return this.#apiKey !== undefined; }

  /** Replaces the API key (null/'' clears it). */
  setApiKey(key) {
    if (key !== null && key !== '' && typeof key !== 'string') throw new RagwasmError('INVALID_ARGUMENT', 'ragwasm: apiKey: expected a string');
    this.#apiKey = key ? key : undefined;
  }

  /** Never print the key, even through util.inspect or JSON.stringify. */
  toJSON() {
    return { provider: this.provider, baseUrl: this.baseUrl, model: this.model, hasApiKey: this.hasApiKey };
  }

  /**
   * The Collection's LLM context steps (pipeline config `chunker.context.llmSummary`): the document's
   * summary, as summarizeDocument. `Collection.create(config, {llm: client})` calls it once per document.
   * @param {{id: string, title?: string, text: string}} document
   * @param {{prompt?: object, maxTokens?: number, signal?: AbortSignal}} [options]
   * @returns {Promise<string>}
   */
  async documentSummary(document, options = {}) {
    const { prompt, ...o } = options;
    const r = await summarizeDocument(this, document?.text, { ...o, ...(document?.title ? { title: document.title } : {}), ...(prompt ? { prompt: definePrompt(prompt) } : {}) });
    return r.summary;
  }

  /**
   * The Collection's LLM context steps (pipeline config `chunker.context.llmChunkContext`): one context
   * note per chunk, as llmChunkContexts (one call per chunk, the document first).
   * @param {{id: string, title?: string, text: string}} document
   * @param {{id: string, text: string}[]} chunks
   * @param {{prompt?: object, maxTokens?: number, signal?: AbortSignal}} [options]
   * @returns {Promise<string[]>}
   */
  async chunkContexts(document, chunks, options = {}) {
    const { prompt, ...o } = options;
    return llmChunkContexts(this, { ...o, ...(prompt ? { prompt: definePrompt(prompt) } : {}) })(document, chunks);
  }

  /**
   * ask()'s grounded answer with [n] citations, as generateAnswer(this, input, options).
   * @param {{question: string, passages: Array<{id?: string, text: string}>}} input
   * @param {{onText?: (delta: string) => void, signal?: AbortSignal, temperature?: number, maxTokens?: number, prompt?: object}} [options]
   * @returns {ReturnType<typeof generateAnswer>}
   */
  answer(input, options = {}) {
    return generateAnswer(this, input, options);
  }

  /**
   * ask()'s follow-up rewrite: a conversational question -> one standalone search query, as rewriteQuery(this, ...).
   * @param {string} question
   * @param {{history?: Array<{role: 'user'|'assistant', content: string}>, signal?: AbortSignal, prompt?: object}} [options]
   * @returns {Promise<{query: string, usage: object, cost: number|null}>}
   */
  rewriteQuery(question, options = {}) {
    return rewriteQuery(this, question, options);
  }

  /**
   * ask({clarify})'s query clarification, as clarifyQuestion(this, input, options).
   * @param {{question: string, passages: Array<{id: string, text: string}>}} input
   * @param {{prompt?: object, maxTokens?: number, signal?: AbortSignal}} [options]
   * @returns {ReturnType<typeof clarifyQuestion>}
   */
  clarify(input, options = {}) {
    return clarifyQuestion(this, input, options);
  }

  /**
   * ask()'s LLM query expansion (pipeline config retrieval.llmExpansion), as expandQuery(this, question, options).
   * @param {string} question
   * @param {{mode?: 'hyde'|'query2doc', maxTokens?: number, prompt?: object, signal?: AbortSignal}} [options]
   * @returns {Promise<{query: string, passage: string, mode: 'hyde'|'query2doc', usage: object, cost: number|null}>}
   */
  expandQuery(question, options = {}) {
    return expandQuery(this, question, options);
  }

  /**
   * One completion. Streams over SSE when `onText` is given (called with each text delta).
   * @param {{messages: Array<{role: 'system'|'user'|'assistant', content: string|Array<{text: string, cache?: boolean}>}>,
   *   maxTokens?: number, temperature?: number, stop?: string[], seed?: number, purpose?: string}} request
   * @param {{signal?: AbortSignal, onText?: (delta: string) => void, stream?: boolean, sample?: number}} [callOptions]
   *   sample: index of one of several samples of the same request (self-consistency); it is part of the
   *   cache key only (never sent), so n cached samples stay n distinct replies
   * @returns {Promise<import('../llm.js').CompletionResult>}
   * @throws {RagwasmError} HTTP (status in details.status), NETWORK, TIMEOUT, ABORTED, PARSE_ERROR, INVALID_ARGUMENT
   */
  async complete(request, callOptions = {}) {
    const req = this.#validateRequest(request);
    const co = expectOptions(callOptions, 'complete options', ['signal', 'onText', 'stream', 'sample']);
    const sample = co.sample === undefined ? 0 : expectInteger(co.sample, 'options.sample', { min: 0, max: 1000 });
    const onText = co.onText === undefined ? null : expectFunction(co.onText, 'options.onText');
    const stream = co.stream ?? onText !== null;
    const signal = co.signal;
    if (signal?.aborted) throw aborted();
    this.stats.calls++;
    const purpose = req.purpose ?? '';
    const body = buildBody(this.provider, this.model, req, { stream, streamUsage: this.streamUsage });
    let cacheKey = null;
    if (this.cache) {
      const { stream: _s, stream_options: _so, ...keyed } = body;
      cacheKey = await sha256Hex(canonicalJson({ provider: this.provider, url: this.url, body: keyed, ...(sample ? { sample } : {}) }));
      const hit = await this.cache.get(cacheKey);
      if (hit !== undefined) {
        this.stats.cacheHits++;
        if (onText && hit.text) onText(hit.text);
        // Nothing was spent on this call: cost 0; what the original call cost stays visible as savedCost.
        return { ...hit, cost: hit.cost === null ? null : 0, savedCost: hit.cost, cached: true, latencyMs: 0, attempts: 0 };
      }
    }
    await this.#acquire(signal);
    const started = Date.now();
    try {
      const r = await this.#withRetries(body, stream, onText, signal, purpose);
      const cost = this.prices.cost(this.model, r.usage);
      const result = {
        text: r.text,
        finishReason: r.finishReason,
        usage: r.usage,
        cost,
        model: r.model ?? this.model,
        provider: this.provider,
        host: this.host,
        latencyMs: Date.now() - started,
        attempts: r.attempts,
        cached: false,
      };
      this.stats.inputTokens += r.usage.inputTokens ?? 0;
      this.stats.outputTokens += r.usage.outputTokens ?? 0;
      if (cost === null) this.stats.unpricedCalls++;
      else this.stats.pricedCost += cost;
      if (cacheKey) await this.cache.set(cacheKey, { ...result });
      return result;
    } catch (e) {
      this.stats.failures++;
      throw e;
    } finally {
      this.#release();
    }
  }

  /**
   * Streams a completion: yields {type: 'text', text} per delta, then {type: 'done', result}.
   * Breaking out of the loop aborts the request.
   * @param {import('../llm.js').CompletionRequest} request
   * @param {{signal?: AbortSignal}} [callOptions]
   * @returns {AsyncGenerator<import('../llm.js').StreamEvent>}
   */
  async *stream(request, callOptions = {}) {
    const co = expectOptions(callOptions, 'stream options', ['signal']);
    const ctrl = new AbortController();
    const outer = co.signal;
    const onAbort = () => ctrl.abort();
    if (outer?.aborted) ctrl.abort();  // an already-aborted signal never fires 'abort'
    else outer?.addEventListener('abort', onAbort, { once: true });
    const queue = [];
    let wake = null;
    let finished = false;
    let result;
    let error;
    const p = this.complete(request, { signal: ctrl.signal, stream: true, onText: (t) => { queue.push(t); wake?.(); } })
      .then((r) => { result = r; }, (e) => { error = e; })
      .finally(() => { finished = true; wake?.(); });
    try {
      for (;;) {
        while (queue.length) yield { type: 'text', text: queue.shift() };
        if (finished) break;
        await new Promise((res) => { wake = res; });
        wake = null;
      }
      await p;
      if (error) throw error;
      yield { type: 'done', result };
    } finally {
      if (!finished) ctrl.abort();
      outer?.removeEventListener('abort', onAbort);
    }
  }

  #validateRequest(request) {
    const r = expectOptions(request, 'request', REQUEST_KEYS);
    if (!isArray(r.messages) || r.messages.length === 0) throw invalid('request.messages', 'a non-empty array', r.messages);
    // Index-based checks (holes included) before the body builder maps over the arrays.
    expectArray(r.messages, 'request.messages', { maxLength: 100_000, item: (m, n) => {
      if (!isPlainObject(m)) throw invalid(n, 'a {role, content} object', m);
      expectEnum(m.role, `${n}.role`, ['system', 'user', 'assistant']);
      if (typeof m.content === 'string') return;
      if (!isArray(m.content)) throw invalid(`${n}.content`, 'a string or an array of {text, cache?}', m.content);
      expectArray(m.content, `${n}.content`, { maxLength: 100_000, item: (p, pn) => {
        if (!isPlainObject(p) || typeof p.text !== 'string') throw invalid(pn, 'a {text, cache?} part', p);
      } });
    } });
    if (r.maxTokens !== undefined) expectInteger(r.maxTokens, 'request.maxTokens', { min: 1, max: 1000000 });
    if (r.temperature !== undefined) expectNumber(r.temperature, 'request.temperature', { min: 0, max: 2 });
    if (r.seed !== undefined) expectInteger(r.seed, 'request.seed');
    if (r.stop !== undefined) expectArray(r.stop, 'request.stop', { maxLength: 64, item: (x, n) => expectString(x, n) });
    if (r.purpose !== undefined) expectString(r.purpose, 'request.purpose');
    return r;
  }

  async #acquire(signal) {
    // A signal aborted while the cache was consulted would never fire its 'abort' listener below.
    if (signal?.aborted) throw aborted();
    if (this.active < this.concurrency) {
      this.active++;
      return;
    }
    await new Promise((resolve, reject) => {
      const entry = { resolve, reject, signal, onAbort: null };
      if (signal) {
        entry.onAbort = () => {
          const i = this.queue.indexOf(entry);
          if (i >= 0) this.queue.splice(i, 1);
          reject(aborted());
        };
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      this.queue.push(entry);
    });
  }

  #release() {
    const next = this.queue.shift();
    if (next) {
      next.signal?.removeEventListener('abort', next.onAbort);
      next.resolve();  // the slot passes to the next waiter: active stays the same
    } else {
      this.active--;
    }
  }

  #redact(text) {
    let s = String(text);
    if (this.#apiKey) s = s.split(this.#apiKey).join('[redacted]');
    for (const secret of this.#secrets) s = s.split(secret).join('[redacted]');
    return s.replace(/(Bearer\s+)[^\s"',]+/gi, '$1[redacted]');
  }

  async #withRetries(body, stream, onText, signal, purpose) {
    let emitted = false;
    const emit = onText ? (t) => { if (t) { emitted = true; onText(t); } } : null;
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await this.#attempt(body, stream, emit, signal, purpose, attempt);
        return { ...r, attempts: attempt };
      } catch (e) {
        const retryable = e instanceof RagwasmError && (e.code === 'NETWORK' || e.code === 'TIMEOUT' ||
          (e.code === 'HTTP' && (RETRYABLE_STATUS.has(Number(e.details?.status)) || e.details?.errorType === 'overloaded_error')));
        // Text already shown to the user cannot be taken back: no retry after a partial stream.
        if (!retryable || attempt > this.maxRetries || emitted) {
          if (e instanceof RagwasmError && e.details) e.details.attempts = attempt;
          throw e;
        }
        const retryAfter = /** @type {number|undefined} set by #attempt from Retry-After */ (e.details?.retryAfterMs);
        if (retryAfter !== undefined && retryAfter > this.maxRetryAfterMs) {
          e.details.attempts = attempt;
          throw e;
        }
        const backoff = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** (attempt - 1)) * (0.5 + 0.5 * this.random());
        this.stats.retries++;
        await sleep(retryAfter ?? backoff, signal);
      }
    }
  }

  async #attempt(body, stream, emit, signal, purpose, attempt) {
    const headers = { 'content-type': 'application/json', ...this.#headers };
    if (stream) headers.accept = 'text/event-stream';
    if (this.provider === 'anthropic') {
      headers['anthropic-version'] = this.anthropicVersion;
      if (this.#apiKey) headers['x-api-key'] = this.#apiKey;
    } else if (this.#apiKey) {
      headers.authorization = `Bearer ${this.#apiKey}`;
    }
    if (signal?.aborted) throw aborted();  // e.g. aborted as a backoff ended: send nothing, record nothing
    const text = JSON.stringify(body);
    const entry = this.ledger.record({
      time: new Date().toISOString(), host: this.host, url: this.url, method: 'POST', provider: this.provider,
      model: this.model, purpose, body: this.#redact(text), bytes: new TextEncoder().encode(text).length,
      attempt, status: null, error: null,
    });
    this.stats.httpAttempts++;
    const ctrl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; ctrl.abort(); }, this.timeoutMs);
    const onAbort = () => ctrl.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const fail = (err) => {
      entry.error = err.code;
      return err;
    };
    const why = () => (signal?.aborted ? aborted() : timedOut
      ? new RagwasmError('TIMEOUT', `ragwasm: no complete reply from ${this.host} within ${this.timeoutMs} ms (options.timeoutMs)`, { host: this.host })
      : null);
    try {
      let res;
      try {
        // redirect: 'manual': a redirect is never followed, so the prompt (the user's passages) and the
        // credentials go to the configured host only; the 3xx is reported below.
        res = await this.fetch(this.url, { method: 'POST', headers, body: text, signal: ctrl.signal, redirect: 'manual' });
      } catch (e) {
        throw fail(why() ?? new RagwasmError('NETWORK', `ragwasm: could not reach ${this.host}: ${this.#redact(e?.cause?.code ?? e?.message ?? e)}`, { host: this.host }));
      }
      entry.status = res.status;
      if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
        // Browsers hide a manual redirect's status and Location (an "opaqueredirect" response, status 0).
        const location = res.type === 'opaqueredirect' ? null : res.headers.get('location');
        const target = location ? this.#redact(location).slice(0, 300) : 'a location the browser does not reveal';
        entry.redirect = location ? target : 'opaque';
        await res.body?.cancel().catch(() => {});
        throw fail(new RagwasmError('HTTP', `ragwasm: HTTP ${res.status || 'redirect'} from ${this.host} to ${target}: redirects are not followed ` +
          '(the request and its credentials go only to the configured baseUrl; set baseUrl to the final URL)',
        { status: res.status, host: this.host, location: location ? target : null }));
      }
      if (res.redirected) {
        // A custom options.fetch that ignored redirect: 'manual' already followed it: the reply came
        // from elsewhere and is discarded; the ledger notes where.
        const target = this.#redact(String(res.url || 'an unknown location')).slice(0, 300);
        entry.redirect = target;
        await res.body?.cancel().catch(() => {});
        throw fail(new RagwasmError('HTTP', `ragwasm: options.fetch followed a redirect from ${this.host} to ${target} despite redirect: 'manual'; ` +
          'the reply is discarded (use a fetch that honours redirect: \'manual\')', { status: res.status, host: this.host, location: target }));
      }
      if (!res.ok) {
        let detail = '';
        try { detail = await readCapped(res, ERROR_DETAIL_BYTES, this.host, false); } catch { /* body unreadable: status alone */ }
        const details = { status: res.status, host: this.host };
        const ra = retryAfterMs(res.headers);
        if (ra !== undefined) details.retryAfterMs = ra;
        const hint = res.status === 401 || res.status === 403 ? ' (check the API key)' : res.status === 404 ? ' (check baseUrl and model)' : '';
        throw fail(new RagwasmError('HTTP', `ragwasm: HTTP ${res.status} from ${this.host}${hint}: ${this.#redact(detail.slice(0, 300))}`, details));
      }
      try {
        if (!stream) {
          const raw = await readCapped(res, this.maxReplyBytes, this.host, true);
          let json;
          try {
            json = JSON.parse(raw);
          } catch {
            throw new RagwasmError('PARSE_ERROR', `ragwasm: reply from ${this.host}: malformed JSON: ${JSON.stringify(this.#redact(raw.slice(0, 80)))}`, { host: this.host });
          }
          const r = readReply(this.provider, json, this.host);
          if (emit) emit(r.text);
          return r;
        }
        const ct = res.headers.get('content-type') ?? '';
        if (!ct.includes('text/event-stream')) {
          // Some servers ignore stream: true and answer with one JSON object.
          const raw = await readCapped(res, this.maxReplyBytes, this.host, true);
          let json;
          try {
            json = JSON.parse(raw);
          } catch {
            throw new RagwasmError('PARSE_ERROR', `ragwasm: reply from ${this.host}: expected text/event-stream or JSON, got ${JSON.stringify(ct)}`, { host: this.host });
          }
          const r = readReply(this.provider, json, this.host);
          if (emit) emit(r.text);
          return r;
        }
        const reader = new StreamReader(this.provider, this.host);
        for await (const ev of parseSse(cappedStream(res, this.maxReplyBytes, this.host))) {
          const delta = reader.push(ev);
          if (delta && emit) emit(delta);
          if (reader.done) break;
        }
        return reader.finish();
      } catch (e) {
        if (e instanceof RagwasmError) throw fail(e);
        throw fail(why() ?? new RagwasmError('NETWORK', `ragwasm: connection to ${this.host} failed while reading the reply: ${this.#redact(e?.message ?? e)}`, { host: this.host }));
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function replyTooLarge(host, limit, got) {
  return new RagwasmError('LIMIT_EXCEEDED', `ragwasm: reply from ${host} is larger than options.maxReplyBytes (${limit} bytes)` +
    (got === undefined ? '' : `: ${got} bytes`) + '; the connection was closed', { host, maxReplyBytes: limit });
}

/**
 * The response body's chunks, counted: throws LIMIT_EXCEEDED (and cancels the body) once more than
 * `limit` bytes arrived, or at once when Content-Length already says so.
 */
async function* cappedStream(res, limit, host) {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel().catch(() => {});
    throw replyTooLarge(host, limit, declared);
  }
  if (!res.body) return;
  let total = 0;
  for await (const value of readerIterable(res.body)) {  // a throw here cancels the body
    total += value.byteLength;
    if (total > limit) throw replyTooLarge(host, limit);
    yield value;
  }
}

/** The body as text, at most `limit` bytes: LIMIT_EXCEEDED beyond when `strict`, else truncated. */
async function readCapped(res, limit, host, strict) {
  const decoder = new TextDecoder('utf-8');
  let out = '';
  try {
    for await (const chunk of cappedStream(res, limit, host)) out += decoder.decode(chunk, { stream: true });
  } catch (e) {
    if (strict || !(e instanceof RagwasmError && e.code === 'LIMIT_EXCEEDED')) throw e;
  }
  return out + decoder.decode();
}

function aborted() {
  return new RagwasmError('ABORTED', 'ragwasm: the request was aborted (AbortSignal)');
}

/** Retry-After (seconds or an HTTP date) or retry-after-ms, in ms; undefined when absent/invalid. */
export function retryAfterMs(headers, now = Date.now()) {
  if (!hasMethod(headers, 'get')) throw invalid('headers', 'a Headers object (with get(name))', headers);
  expectNumber(now, 'now');
  const header = (name) => {
    const v = headers.get(name);
    return typeof v === 'string' ? v : null;
  };
  const ms = header('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim()) && Number.isFinite(Number(ms))) return Number(ms);
  const v = header('retry-after');
  if (v === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) {
    const s = Number(v) * 1000;
    return Number.isFinite(s) ? s : undefined;
  }
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const t = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(t); reject(aborted()); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Opt-in persistence of an API key in a Storage-like object (localStorage, sessionStorage): the
 * client never stores keys by itself. Returns the key read, or null.
 */
export function loadApiKey(storage, name) {
  expectStorage(storage, 'getItem');
  const v = storage.getItem(`ragwasm.apiKey.${expectString(name, 'name', { allowEmpty: false })}`);
  return typeof v === 'string' ? v : null;
}

/** Stores an API key under a name in a Storage-like object the user chose. */
export function saveApiKey(storage, name, key) {
  expectStorage(storage, 'setItem');
  storage.setItem(`ragwasm.apiKey.${expectString(name, 'name', { allowEmpty: false })}`, expectString(key, 'key', { allowEmpty: false }));
}

/** Removes a stored API key. */
export function forgetApiKey(storage, name) {
  expectStorage(storage, 'removeItem');
  storage.removeItem(`ragwasm.apiKey.${expectString(name, 'name', { allowEmpty: false })}`);
}

// A Storage-like object (localStorage, sessionStorage, or any {getItem, setItem, removeItem}).
function expectStorage(storage, method) {
  if (!hasMethod(storage, method)) {
    throw invalid('storage', `a Storage-like object with ${method}() (e.g. localStorage)`, storage);
  }
}
