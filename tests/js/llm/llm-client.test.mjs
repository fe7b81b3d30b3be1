// LLM clients against the local ProtocolTestDouble (127.0.0.1, scripted replies): JSON and SSE
// replies for both protocols, 401, 429 + Retry-After, 500, timeouts, truncated streams, malformed
// JSON, cancellation, the concurrency limit, cost, cache and ledger, and API-key hygiene.
// Nothing here is model output; nothing here says anything about model quality.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createLlmClient, PriceTable, RequestLedger, ResponseCache, parseSse, retryAfterMs, saveApiKey, loadApiKey, forgetApiKey } from '../../../web/src/llm.js';
import { ProtocolTestDouble, anthropicJson, anthropicSse, openaiJson, openaiSse, rejectsWith as rejects } from '../llm-protocol-double.mjs';

const KEY = 'sk-test-SECRET-0123456789abcdef';
let double;
before(async () => { double = await ProtocolTestDouble.start(); });
after(async () => { await double.close(); });

// Short timeouts and backoffs keep the whole file well under a few seconds.
function client(extra = {}) {
  return createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model: 'double-model', apiKey: KEY,
    timeoutMs: 2000, retryBaseMs: 5, retryMaxMs: 20, random: () => 0.5, ...extra });
}
const ask = (text = 'What is in the test document?') => ({ messages: [{ role: 'user', content: text }] });

const rejectsWith = (promise, code) => rejects(promise, code, KEY);

test('openai JSON reply: text, usage, cost and the request that was sent', async () => {
  double.reset();
  double.enqueue({ json: openaiJson('[scripted reply 1]', { prompt_tokens: 1000, completion_tokens: 500 }) });
  const ledger = new RequestLedger();
  const c = client({ ledger, prices: { 'double-model': { inputPerMTok: 2, outputPerMTok: 8 } } });
  const r = await c.complete({ ...ask(), temperature: 0, maxTokens: 50, purpose: 'unit' });
  assert.equal(r.text, '[scripted reply 1]');
  assert.deepEqual(r.usage, { inputTokens: 1000, outputTokens: 500, cachedInputTokens: 0, cacheWriteTokens: 0 });
  assert.equal(r.cost, (1000 * 2 + 500 * 8) / 1e6);  // 0.006
  assert.equal(r.attempts, 1);
  const sent = double.requests[0];
  assert.equal(sent.path, '/v1/chat/completions');
  assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
  assert.deepEqual(sent.body, { model: 'double-model', messages: [{ role: 'user', content: 'What is in the test document?' }], max_tokens: 50, temperature: 0 });
  // The ledger holds exactly the bytes sent and the host, and no key.
  assert.equal(ledger.entries.length, 1);
  assert.equal(ledger.entries[0].body, sent.raw);
  assert.equal(ledger.entries[0].host, `127.0.0.1:${double.port}`);
  assert.equal(ledger.entries[0].purpose, 'unit');
  assert.equal(ledger.entries[0].status, 200);
  assert.ok(!ledger.toJsonl().includes(KEY));
});

test('a model without a price has cost null not zero', async () => {
  double.reset();
  double.enqueue({ json: openaiJson('[scripted]') });
  const r = await client().complete(ask());
  assert.equal(r.cost, null);
  assert.equal(new PriceTable({ m: { inputPerMTok: 1, outputPerMTok: 1 } }).cost('m', { inputTokens: null, outputTokens: 3 }), null);
});

test('stats.cost is null (unknown) once a sent call had no price, never 0; pricedCost sums the priced calls', async () => {
  double.reset();
  double.always({ json: openaiJson('[scripted]', { prompt_tokens: 1000, completion_tokens: 500 }) });
  const c = client();
  assert.equal(c.stats.cost, 0, 'nothing sent yet: nothing spent');
  await c.complete(ask());
  await c.complete(ask('again'));
  assert.equal(c.stats.cost, null);
  assert.equal(c.stats.unpricedCalls, 2);
  assert.equal(c.stats.pricedCost, 0);
  assert.equal(JSON.parse(JSON.stringify(c.stats)).cost, null, 'a copy of the stats says unknown too');
  assert.equal({ ...c.stats }.cost, null);
  // a priced model: the sum; one unpriced call among priced ones makes the total unknown
  const p = client({ prices: { 'double-model': { inputPerMTok: 2, outputPerMTok: 8 } } });
  await p.complete(ask());
  assert.equal(p.stats.cost, 0.006);
  double.reset();
  const { usage: _usage, ...noUsage } = openaiJson('[scripted, no usage]');  // eslint-disable-line no-unused-vars
  double.always({ json: noUsage });
  await p.complete(ask('no usage in the reply'));
  assert.equal(p.stats.cost, null);
  assert.equal(p.stats.pricedCost, 0.006);
  assert.equal(p.stats.unpricedCalls, 1);
});

test('openai SSE stream delivers incremental text and usage', async () => {
  double.reset();
  double.enqueue({ sse: openaiSse(['[scripted ', 'stream ', 'reply]'], { prompt_tokens: 20, completion_tokens: 3 }), chunkDelayMs: 2 });
  const deltas = [];
  const r = await client().complete(ask(), { onText: (t) => deltas.push(t) });
  assert.deepEqual(deltas, ['[scripted ', 'stream ', 'reply]']);
  assert.equal(r.text, '[scripted stream reply]');
  assert.equal(r.usage.inputTokens, 20);
  assert.equal(r.finishReason, 'stop');
  assert.equal(double.requests[0].body.stream, true);
  assert.deepEqual(double.requests[0].body.stream_options, { include_usage: true });
});

test('anthropic JSON and SSE replies with system prompt and cache markers', async () => {
  double.reset();
  double.enqueue({ json: anthropicJson('[scripted anthropic reply]') });
  const c = createLlmClient({ provider: 'anthropic', baseUrl: double.origin, model: 'double-model', apiKey: KEY, timeoutMs: 2000 });
  const req = { messages: [{ role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ text: '<document>D</document>', cache: true }, { text: 'Q' }] }], maxTokens: 64 };
  const r = await c.complete(req);
  assert.equal(r.text, '[scripted anthropic reply]');
  assert.equal(r.usage.inputTokens, 13);
  const sent = double.requests[0];
  assert.equal(sent.path, '/v1/messages');
  assert.equal(sent.headers['x-api-key'], KEY);
  assert.equal(sent.headers['anthropic-version'], '2023-06-01');
  assert.equal(sent.headers.authorization, undefined);
  assert.equal(sent.body.system, 'Be brief.');
  assert.deepEqual(sent.body.messages[0].content[0], { type: 'text', text: '<document>D</document>', cache_control: { type: 'ephemeral' } });
  double.enqueue({ sse: anthropicSse(['[scripted ', 'events]'], { input_tokens: 10, output_tokens: 4, cache_read_input_tokens: 90 }) });
  const events = [];
  for await (const ev of c.stream(req)) events.push(ev);
  assert.deepEqual(events.filter((e) => e.type === 'text').map((e) => e.text), ['[scripted ', 'events]']);
  const done = events.at(-1);
  assert.equal(done.type, 'done');
  assert.equal(done.result.text, '[scripted events]');
  // input tokens reported = uncached 10 + cache reads 90
  assert.deepEqual(done.result.usage, { inputTokens: 100, outputTokens: 4, cachedInputTokens: 90, cacheWriteTokens: 0 });
});

test('401 fails at once with HTTP and the key is scrubbed from the echoed body', async () => {
  double.reset();
  double.enqueue((req) => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${req.headers.authorization}` } } }));
  const ledger = new RequestLedger();
  const e = await rejectsWith(client({ ledger }).complete(ask()), 'HTTP');
  assert.equal(e.details.status, 401);
  assert.equal(e.details.attempts, 1);
  assert.equal(double.requests.length, 1);  // no retry on 401
  assert.match(e.message, /HTTP 401 .*check the API key/);
  assert.match(e.message, /\[redacted\]/);
  assert.ok(!JSON.stringify(ledger.entries).includes(KEY));
  assert.equal(ledger.entries[0].error, 'HTTP');
  assert.ok(!JSON.stringify(client()).includes(KEY));
});

test('a credential in an extra header is sent but kept out of errors, the ledger and the object', async () => {
  double.reset();
  const AZURE = 'azure-SECRET-key-9876543210';
  double.enqueue((req) => ({ status: 401, json: { error: { message: `bad api-key ${req.headers['api-key']} for ${req.headers['x-trace']}` } } }));
  const c = createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model: 'double-model', maxRetries: 0, timeoutMs: 2000,
    headers: { 'api-key': AZURE, 'x-trace': 'trace-1' } });
  const e = await rejectsWith(c.complete(ask()), 'HTTP');
  assert.equal(double.requests[0].headers['api-key'], AZURE);
  assert.ok(!e.message.includes(AZURE), e.message);
  assert.match(e.message, /bad api-key \[redacted\] for trace-1/);  // a non-credential header is left alone
  assert.ok(!JSON.stringify(c.ledger.entries).includes(AZURE));
  assert.equal(Object.values(c).some((v) => JSON.stringify(v)?.includes(AZURE)), false);
  assert.throws(() => createLlmClient({ provider: 'openai', baseUrl: 'http://a', model: 'm', headers: { 'x-n': 1 } }), /options.headers/);
});

test('429 with Retry-After waits that long then succeeds', async () => {
  double.reset();
  double.enqueue({ status: 429, headers: { 'retry-after': '0.2' }, json: { error: { message: 'rate limited' } } },
    { json: openaiJson('[scripted after retry]') });
  const r = await client().complete(ask());
  assert.equal(r.text, '[scripted after retry]');
  assert.equal(r.attempts, 2);
  const gap = double.requests[1].time - double.requests[0].time;
  assert.ok(gap >= 190, `second attempt came ${gap} ms after the first; Retry-After asked for 200 ms`);
});

test('a Retry-After beyond maxRetryAfterMs fails now instead of waiting', async () => {
  double.reset();
  double.enqueue({ status: 429, headers: { 'retry-after': '120' }, json: {} });
  const e = await rejectsWith(client({ maxRetryAfterMs: 1000 }).complete(ask()), 'HTTP');
  assert.equal(e.details.retryAfterMs, 120000);
  assert.equal(double.requests.length, 1);
});

test('500s are retried with backoff and fail after maxRetries', async () => {
  double.reset();
  double.always({ status: 500, json: { error: { message: 'scripted server error' } } });
  const c = client({ maxRetries: 2 });
  const e = await rejectsWith(c.complete(ask()), 'HTTP');
  assert.equal(e.details.status, 500);
  assert.equal(e.details.attempts, 3);
  assert.equal(double.requests.length, 3);
  assert.equal(c.stats.retries, 2);
  assert.equal(c.ledger.entries.length, 3);  // every attempt re-sent the text and is recorded
  double.reset();
  double.enqueue({ status: 503, json: {} }, { json: openaiJson('[scripted recovered]') });
  assert.equal((await c.complete(ask())).text, '[scripted recovered]');  // the client still works
});

test('a server that never answers times out with TIMEOUT', async () => {
  double.reset();
  double.always({ hang: true });
  const e = await rejectsWith(client({ timeoutMs: 100, maxRetries: 1 }).complete(ask()), 'TIMEOUT');
  assert.equal(e.details.attempts, 2);
  assert.equal(double.requests.length, 2);
});

test('a truncated SSE stream is a PARSE_ERROR naming the truncation', async () => {
  double.reset();
  double.enqueue({ sse: openaiSse(['[scripted ', 'partial']).slice(0, 3), truncate: true });  // no finish, no [DONE]
  const seen = [];
  const e = await rejectsWith(client().complete(ask(), { onText: (t) => seen.push(t) }), 'PARSE_ERROR');
  assert.match(e.message, /truncated stream/);
  assert.ok(seen.length > 0);
  assert.equal(double.requests.length, 1);  // text already shown: never retried
  // The connection dropping mid-stream is a NETWORK error, also not retried after text was shown.
  double.reset();
  double.enqueue({ sse: openaiSse(['[scripted ', 'partial']).slice(0, 3), truncate: true, cut: true });
  await rejectsWith(client().complete(ask(), { onText: () => {} }), 'NETWORK');
  assert.equal(double.requests.length, 1);
});

test('malformed JSON bodies and events are PARSE_ERROR', async () => {
  double.reset();
  double.enqueue({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"choices": [' });
  await rejectsWith(client().complete(ask()), 'PARSE_ERROR');
  double.enqueue({ sse: ['data: {"choices": [{"delta": {"content": "x"}}]}', 'data: {not json}', 'data: [DONE]'] });
  const e = await rejectsWith(client().complete(ask(), { stream: true }), 'PARSE_ERROR');
  assert.match(e.message, /malformed JSON in a stream event/);
  double.enqueue({ json: { unexpected: true } });
  await rejectsWith(client().complete(ask()), 'PARSE_ERROR');
});

test('a dropped connection is NETWORK and an unreachable port too', async () => {
  double.reset();
  double.always({ destroy: true });
  await rejectsWith(client({ maxRetries: 1 }).complete(ask()), 'NETWORK');
  assert.equal(double.requests.length, 2);
  const dead = createLlmClient({ provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0, timeoutMs: 2000 });
  await rejectsWith(dead.complete(ask()), 'NETWORK');
});

test('an AbortSignal cancels in flight and during backoff with ABORTED', async () => {
  double.reset();
  double.always({ hang: true });
  const ctrl = new AbortController();
  const p = client().complete(ask(), { signal: ctrl.signal });
  setTimeout(() => ctrl.abort(), 50);
  await rejectsWith(p, 'ABORTED');
  double.reset();
  double.always({ status: 429, headers: { 'retry-after': '30' }, json: {} });
  const ctrl2 = new AbortController();
  const p2 = client().complete(ask(), { signal: ctrl2.signal });
  setTimeout(() => ctrl2.abort(), 80);
  await rejectsWith(p2, 'ABORTED');
  assert.equal(double.requests.length, 1);
  await rejectsWith(client().complete(ask(), { signal: AbortSignal.abort() }), 'ABORTED');
  // stream() with an already-aborted signal sends nothing either.
  await rejectsWith((async () => { for await (const _ of client().stream(ask(), { signal: AbortSignal.abort() })) { /* nothing may arrive */ } })(), 'ABORTED');
  assert.equal(double.requests.length, 1);
});

test('breaking out of a stream aborts the request', async () => {
  double.reset();
  const events = openaiSse(['a', 'b', 'c', 'd', 'e']);
  double.enqueue({ sse: events, chunkDelayMs: 100 });
  const c = client({ timeoutMs: 10000 });
  const got = [];
  for await (const ev of c.stream(ask())) {
    got.push(ev);
    if (got.length === 2) break;
  }
  assert.deepEqual(got, [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]);
  // The server sees the connection go away before the rest of the stream is written.
  const rec = double.requests[0];
  for (let waited = 0; !rec.clientGone && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
  assert.equal(rec.clientGone, true, 'the request was not aborted');
  assert.ok(rec.sseWritten < events.length, `all ${rec.sseWritten} events were written`);
  assert.equal(c.active, 0, 'the concurrency slot was not released');
});

test('a request aborted while waiting for a concurrency slot leaves the queue and never sends', async () => {
  double.reset();
  double.always({ json: openaiJson('[scripted]'), delayMs: 300 });
  const c = client({ concurrency: 1 });
  const order = [];
  const first = c.complete(ask('first')).then((r) => { order.push('first'); return r; });
  const ctrl = new AbortController();
  const queued = c.complete(ask('queued'), { signal: ctrl.signal });
  setTimeout(() => ctrl.abort(), 20);
  await rejectsWith(queued, 'ABORTED');
  order.push('queued');
  // Aborted while the cache was consulted, before reaching the queue: it must not wait for a slot.
  const ctrl2 = new AbortController();
  const abortingCache = { get: async () => { ctrl2.abort(); return undefined; }, set: async () => {} };
  const c2 = createLlmClient({ provider: 'openai', baseUrl: `${double.origin}/v1`, model: 'double-model', cache: abortingCache, concurrency: 1, timeoutMs: 2000 });
  const busy = c2.complete(ask('busy'));
  await rejectsWith(c2.complete(ask('late'), { signal: ctrl2.signal }), 'ABORTED');
  order.push('late');
  await first;
  await busy;
  assert.deepEqual(order, ['queued', 'late', 'first']);
  assert.deepEqual(double.requests.map((r) => r.body.messages[0].content), ['first', 'busy']);
  assert.equal(c.active, 0);
  assert.equal(c.queue.length, 0);
  assert.equal(c2.active, 0);
  assert.equal(c2.queue.length, 0);
});

test('the concurrency limit bounds requests in flight', async () => {
  double.reset();
  double.always({ json: openaiJson('[scripted]'), delayMs: 40 });
  const c = client({ concurrency: 2 });
  const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => c.complete(ask(`q${i}`))));
  assert.equal(rs.length, 6);
  assert.equal(double.requests.length, 6);
  assert.equal(double.maxInFlight, 2);
  assert.equal(c.active, 0);
});

test('the opt-in cache answers a repeated request without sending anything', async () => {
  double.reset();
  double.always({ json: openaiJson('[scripted cached]') });
  const cache = new ResponseCache();
  const ledger = new RequestLedger();
  const c = client({ cache, ledger, prices: { 'double-model': { inputPerMTok: 1, outputPerMTok: 2 } } });
  const a = await c.complete({ ...ask(), temperature: 0 });
  const b = await c.complete({ ...ask(), temperature: 0 });
  const other = await c.complete({ ...ask('another question'), temperature: 0 });
  assert.equal(a.cached, false);
  assert.equal(b.cached, true);
  assert.equal(b.text, a.text);
  assert.ok(a.cost > 0, 'the scripted usage is priced');
  assert.equal(b.cost, 0, 'a cache hit costs nothing');
  assert.equal(b.savedCost, a.cost);
  assert.equal(c.stats.cost, a.cost + other.cost, 'stats count only calls that were sent');
  assert.equal(other.cached, false);
  assert.equal(double.requests.length, 2);
  assert.equal(ledger.entries.length, 2);
  assert.equal(cache.hits, 1);
  // The key covers the model and every parameter sent: changing any one of them misses.
  const variants = [{ temperature: 0.5 }, { temperature: 0, maxTokens: 7 }, { temperature: 0, stop: ['\n'] }, { temperature: 0, seed: 1 },
    { temperature: 0, messages: [{ role: 'system', content: 'S' }, ...ask().messages] }];
  for (const v of variants) assert.equal((await c.complete({ ...ask(), ...v })).cached, false, JSON.stringify(v));
  assert.equal((await client({ cache, model: 'other-model' }).complete({ ...ask(), temperature: 0 })).cached, false, 'another model');
  // Another protocol is another key: the request is sent (and the double's OpenAI reply does not parse as Anthropic).
  await rejectsWith(client({ cache, provider: 'anthropic', baseUrl: double.origin }).complete({ ...ask(), temperature: 0 }), 'PARSE_ERROR');
  assert.equal(double.requests.length, 2 + variants.length + 2);
  assert.equal((await c.complete({ ...ask(), temperature: 0, maxTokens: 7 })).cached, true);  // and the same variant hits
  // Without a cache nothing is cached.
  const before = double.requests.length;
  await client().complete(ask());
  await client().complete(ask());
  assert.equal(double.requests.length, before + 2);
});

test('bad client options and requests are INVALID_ARGUMENT naming the parameter', () => {
  assert.throws(() => createLlmClient({ provider: 'x', baseUrl: 'http://a', model: 'm' }), (e) => e.code === 'INVALID_ARGUMENT' && /options.provider/.test(e.message));
  assert.throws(() => createLlmClient({ provider: 'openai', baseUrl: 'ftp://a', model: 'm' }), (e) => e.code === 'INVALID_ARGUMENT' && /baseUrl/.test(e.message));
  assert.throws(() => createLlmClient({ provider: 'openai', baseUrl: 'http://a', model: 'm', timeoutMs: 1.5 }), /options.timeoutMs/);
  assert.throws(() => createLlmClient({ provider: 'openai', baseUrl: 'http://a', model: 'm', apiKeyy: 'x' }), /unknown option 'apiKeyy'/);
  const c = client();
  return Promise.all([
    rejectsWith(c.complete({ messages: [] }), 'INVALID_ARGUMENT'),
    rejectsWith(c.complete({ messages: [{ role: 'robot', content: 'x' }] }), 'INVALID_ARGUMENT'),
    rejectsWith(c.complete({ ...ask(), temperature: NaN }), 'INVALID_ARGUMENT'),
  ]);
});

test('the SSE parser handles CRLF, CR, comments, multi-line data and characters split across chunks', async () => {
  const bytes = new TextEncoder().encode('data: a\r\ndata: b\r\n\r\n: comment\revent: x\rdata: é€\r\rdata: last\n\n');
  // Feed one byte at a time: every split point, including inside "\r\n" and inside é and €.
  async function* oneByte() { for (const b of bytes) yield new Uint8Array([b]); }
  const events = [];
  for await (const ev of parseSse(oneByte())) events.push(ev);
  assert.deepEqual(events.map((e) => [e.event, e.data]), [['message', 'a\nb'], ['x', 'é€'], ['message', 'last']]);
  const state = {};
  const tail = [];
  async function* cut() { yield new TextEncoder().encode('data: one\n\ndata: two'); }
  for await (const ev of parseSse(cut(), state)) tail.push(ev.data);
  assert.deepEqual(tail, ['one']);  // the unterminated event is not dispatched
  assert.equal(state.incomplete, true);
  // A stream that can only be read through getReader() (no async iteration, as in older browsers):
  // read to the end it releases its lock; left early it is cancelled so the connection is freed.
  const readerOnly = (chunks) => {
    const rs = new ReadableStream({ pull(c) { if (chunks.length) c.enqueue(new TextEncoder().encode(chunks.shift())); else c.close(); } });
    const log = [];
    return { log, stream: { getReader() { const r = rs.getReader(); return { read: () => r.read(), releaseLock: () => { log.push('release'); r.releaseLock(); }, cancel: (why) => { log.push('cancel'); return r.cancel(why); } }; } } };
  };
  const full = readerOnly(['data: a\n\n', 'data: b\n\n']);
  const all = [];
  for await (const ev of parseSse(full.stream)) all.push(ev.data);
  assert.deepEqual(all, ['a', 'b']);
  assert.deepEqual(full.log, ['release']);
  const early = readerOnly(['data: a\n\n', 'data: b\n\n']);
  for await (const ev of parseSse(early.stream)) { assert.equal(ev.data, 'a'); break; }
  assert.deepEqual(early.log, ['cancel']);
});

test('the SSE parser scans each byte of a long line once (#30 L-1: no re-scan of the pending line per chunk)', async () => {
  // 64 KiB in one line, fed in 1 KiB chunks: re-scanning the pending text would visit about
  // 64 * 65536 / 2 = 2.1 M characters; one pass visits 65 K. Counted through charCodeAt, the scan's only read.
  const line = `data: ${'x'.repeat(65536)}\n\n`;
  const bytes = new TextEncoder().encode(line);
  async function* chunks() { for (let i = 0; i < bytes.length; i += 1024) yield bytes.subarray(i, i + 1024); }
  const original = String.prototype.charCodeAt;
  let reads = 0;
  // eslint-disable-next-line no-extend-native
  String.prototype.charCodeAt = function charCodeAt(i) { reads++; return original.call(this, i); };
  const events = [];
  try {
    for await (const ev of parseSse(chunks())) events.push(ev);
  } finally {
    // eslint-disable-next-line no-extend-native
    String.prototype.charCodeAt = original;
  }
  assert.equal(events.length, 1);
  assert.equal(events[0].data.length, 65536);
  assert.ok(reads < 2 * line.length, `${reads} character reads for a ${line.length}-character stream`);
});

test('a baseUrl with credentials is refused without repeating them; a query string stays after the path (#30 L-2, L-3)', async () => {
  for (const baseUrl of ['http://user:PASS@127.0.0.1:9/v1', 'https://PASS@api.example/v1', 'http://user:PASS@[bad/v1']) {
    assert.throws(() => createLlmClient({ provider: 'openai', baseUrl, model: 'm' }),
      (e) => e.code === 'INVALID_ARGUMENT' && /options\.baseUrl/.test(e.message) && !e.message.includes('PASS'), baseUrl);
  }
  const seen = [];
  const fetch = async (url) => {
    seen.push(url);
    return new Response(JSON.stringify(openaiJson('ok')), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const ledger = new RequestLedger();
  const c = createLlmClient({ provider: 'openai', baseUrl: 'http://127.0.0.1:9/openai/v1/?api-version=2024-10-01', model: 'm', fetch, ledger, maxRetries: 0 });
  await c.complete(ask());
  assert.deepEqual(seen, ['http://127.0.0.1:9/openai/v1/chat/completions?api-version=2024-10-01']);
  assert.equal(ledger.entries[0].url, seen[0]);
  const a = createLlmClient({ provider: 'anthropic', baseUrl: 'https://gw.example?key=1', model: 'm', fetch });
  assert.equal(a.url, 'https://gw.example/v1/messages?key=1');
});

test('Retry-After is read as seconds, an HTTP date or retry-after-ms', () => {
  const h = (o) => new Headers(o);
  assert.equal(retryAfterMs(h({ 'retry-after': '3' })), 3000);
  assert.equal(retryAfterMs(h({ 'retry-after-ms': '250', 'retry-after': '3' })), 250);
  const now = Date.parse('Sat, 21 Nov 2026 06:00:00 GMT');
  assert.equal(retryAfterMs(h({ 'retry-after': 'Sat, 21 Nov 2026 06:00:05 GMT' }), now), 5000);
  assert.equal(retryAfterMs(h({ 'retry-after': 'soon' })), undefined);
  assert.equal(retryAfterMs(h({})), undefined);
});

test('an Anthropic overloaded error event before any text is retried', async () => {
  double.reset();
  double.enqueue({ sse: ['event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "scripted overload"}}'] },
    { json: anthropicJson('[scripted after overload]') });
  const c = createLlmClient({ provider: 'anthropic', baseUrl: double.origin, model: 'double-model', timeoutMs: 2000, retryBaseMs: 1, retryMaxMs: 2 });
  const r = await c.complete(ask(), { stream: true });
  assert.equal(r.text, '[scripted after overload]');
  assert.equal(r.attempts, 2);
});

test('API keys are stored only through the explicit opt-in helpers', async () => {
  const store = new Map();
  const storage = { getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) };
  assert.equal(loadApiKey(storage, 'openai'), null);
  saveApiKey(storage, 'openai', KEY);
  assert.equal(loadApiKey(storage, 'openai'), KEY);
  forgetApiKey(storage, 'openai');
  assert.equal(store.size, 0);
  const c = client();
  assert.equal(c.hasApiKey, true);
  assert.equal(Object.values(c).some((v) => v === KEY), false);  // not a readable property
  c.setApiKey(null);
  assert.equal(c.hasApiKey, false);
  double.reset();
  double.enqueue({ json: openaiJson('[scripted]') });
  await c.complete(ask());
  assert.equal(double.requests[0].headers.authorization, undefined);
});
