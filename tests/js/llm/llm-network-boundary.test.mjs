// Issue #19, the network boundary: the LLM client never follows a redirect (a 3xx is an HTTP error
// naming the Location, and the redirect target receives no connection, so neither the prompt nor
// the API key reaches it), a reply larger than maxReplyBytes is cut off with LIMIT_EXCEEDED, and
// the request ledger refuses limits that would make it record nothing. Servers: two local
// ProtocolTestDoubles on 127.0.0.1 with scripted replies (nothing here is model output).
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { RagwasmError } from '../../../web/src/index.js';
import { createLlmClient, RequestLedger } from '../../../web/src/llm.js';
import { ProtocolTestDouble, anthropicJson, anthropicSse, openaiJson, openaiSse, redirectTo, rejectsWith as rejects } from '../llm-protocol-double.mjs';

const KEY = 'sk-test-SECRET-0123456789abcdef';
let origin;  // the configured server
let elsewhere;  // where the redirects point: must never be contacted
before(async () => {
  origin = await ProtocolTestDouble.start();
  elsewhere = await ProtocolTestDouble.start();
  elsewhere.always({ json: openaiJson('[reply from the redirect target]') });
});
after(async () => {
  await origin.close();
  await elsewhere.close();
});

function client(provider, extra = {}) {
  return createLlmClient({ provider, baseUrl: provider === 'openai' ? `${origin.origin}/v1` : origin.origin, model: 'double-model',
    apiKey: KEY, timeoutMs: 2000, retryBaseMs: 5, retryMaxMs: 20, random: () => 0.5, ...extra });
}
const ask = { messages: [{ role: 'user', content: 'Passage: the user document text.' }] };

const rejectsWith = (promise, code) => rejects(promise, code, KEY);

for (const provider of ['openai', 'anthropic']) {
  for (const status of [301, 302, 307, 308]) {
    test(`#19 ${provider}: a ${status} redirect is an HTTP error naming the target and the target receives no connection`, async () => {
      origin.reset();
      const target = `${elsewhere.origin}/steal${provider === 'openai' ? '/v1/chat/completions' : '/v1/messages'}`;
      origin.enqueue(redirectTo(status, target));
      const before = elsewhere.connections;
      const ledger = new RequestLedger();
      const c = client(provider, { ledger });
      for (const stream of [false, true]) {
        if (stream) origin.enqueue(redirectTo(status, target));
        const e = await rejectsWith(c.complete(ask, { stream, onText: stream ? () => {} : undefined }), 'HTTP');
        assert.equal(e.details.status, status);
        assert.equal(e.details.location, target);
        assert.ok(e.message.includes(target), e.message);
        assert.ok(e.message.includes('redirects are not followed'), e.message);
        assert.equal(e.details.attempts, 1, 'a redirect is not retried');
      }
      // Give a follow-up request (if any were made) time to connect before looking.
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(elsewhere.connections, before, 'the redirect target was contacted');
      assert.equal(elsewhere.requests.length, 0);
      // The configured host got the request (with its key); the ledger names only it and the refused target.
      assert.equal(origin.requests.length, 2);
      if (provider === 'anthropic') assert.equal(origin.requests[0].headers['x-api-key'], KEY);
      else assert.equal(origin.requests[0].headers.authorization, `Bearer ${KEY}`);
      assert.deepEqual(Object.keys(ledger.bytesByHost()), [`127.0.0.1:${origin.port}`]);
      assert.equal(ledger.entries[0].status, status);
      assert.equal(ledger.entries[0].error, 'HTTP');
      assert.equal(ledger.entries[0].redirect, target);
      // Nothing was lost: the same client answers the next ordinary reply.
      origin.enqueue({ json: provider === 'openai' ? openaiJson('[scripted ok]') : anthropicJson('[scripted ok]') });
      assert.equal((await c.complete(ask)).text, '[scripted ok]');
    });
  }
}

test('#19 a browser-style opaque redirect is refused without a location', async () => {
  const fakeFetch = async (url, init) => {
    assert.equal(init.redirect, 'manual');
    return { type: 'opaqueredirect', status: 0, ok: false, headers: new Headers(), body: null };
  };
  const c = createLlmClient({ provider: 'openai', baseUrl: 'https://llm.example/v1', model: 'm', apiKey: KEY, fetch: fakeFetch, maxRetries: 0 });
  const e = await rejectsWith(c.complete(ask), 'HTTP');
  assert.equal(e.details.location, null);
  assert.ok(e.message.includes('a location the browser does not reveal'), e.message);
  assert.equal(c.ledger.entries[0].redirect, 'opaque');
});

test('#19 a reply that a custom fetch got by following a redirect anyway is discarded', async () => {
  const followed = async () => {
    const res = new Response(JSON.stringify(openaiJson('[from elsewhere]')), { status: 200, headers: { 'content-type': 'application/json' } });
    Object.defineProperty(res, 'redirected', { value: true });
    Object.defineProperty(res, 'url', { value: 'https://elsewhere.example/v1/chat/completions' });
    return res;
  };
  const c = createLlmClient({ provider: 'openai', baseUrl: 'https://llm.example/v1', model: 'm', apiKey: KEY, fetch: followed, maxRetries: 0 });
  const e = await rejectsWith(c.complete(ask), 'HTTP');
  assert.equal(e.details.location, 'https://elsewhere.example/v1/chat/completions');
  assert.equal(c.ledger.entries[0].redirect, 'https://elsewhere.example/v1/chat/completions');
});

test('#19 every provider request is sent with redirect manual', async () => {
  const seen = [];
  const fakeFetch = async (url, init) => {
    seen.push(init.redirect);
    return new Response(JSON.stringify(openaiJson('[scripted]')), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const c = createLlmClient({ provider: 'openai', baseUrl: 'https://llm.example/v1', model: 'm', fetch: fakeFetch });
  await c.complete(ask);
  await c.complete(ask, { stream: true, onText: () => {} });
  assert.deepEqual(seen, ['manual', 'manual']);
});

test('#19 a reply over maxReplyBytes is LIMIT_EXCEEDED for JSON and streamed replies alike', async () => {
  for (const provider of ['openai', 'anthropic']) {
    origin.reset();
    const big = 'x'.repeat(5000);
    // Non-streaming: Content-Length announces 5,000+ bytes.
    origin.enqueue({ json: provider === 'openai' ? openaiJson(big) : anthropicJson(big) });
    // Streaming (chunked, no Content-Length): counted as it arrives.
    const pieces = Array.from({ length: 50 }, () => 'y'.repeat(200));
    origin.enqueue({ sse: provider === 'openai' ? openaiSse(pieces) : anthropicSse(pieces) });
    const c = client(provider, { maxReplyBytes: 4096 });
    const e1 = await rejectsWith(c.complete(ask), 'LIMIT_EXCEEDED');
    assert.ok(e1.message.includes('options.maxReplyBytes (4096 bytes)'), e1.message);
    assert.equal(e1.details.attempts, 1, 'an oversized reply is not retried');
    let shown = 0;
    const e2 = await rejectsWith(c.complete(ask, { onText: (t) => { shown += t.length; } }), 'LIMIT_EXCEEDED');
    assert.ok(shown < 4096, `at most the allowed bytes reached onText, got ${shown}`);
    assert.equal(e2.details.maxReplyBytes, 4096);
    // Nothing was lost: a reply under the cap is read by the same client.
    origin.enqueue({ json: provider === 'openai' ? openaiJson('[small]') : anthropicJson('[small]') });
    assert.equal((await c.complete(ask)).text, '[small]');
  }
});

test('#19 maxReplyBytes must be a positive integer', () => {
  for (const bad of [0, -1, 1.5, NaN, Infinity, '1000', 2 ** 31]) {
    assert.throws(() => client('openai', { maxReplyBytes: bad }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT');
  }
  assert.equal(client('openai').maxReplyBytes, 16 * 1024 * 1024);
});

test('#19 the ledger refuses limits that would record nothing and then records normally', async () => {
  for (const bad of [0, -1, 1.5, NaN, Infinity, '10', null, 1e8]) {
    assert.throws(() => new RequestLedger({ maxEntries: bad }), (e) => e instanceof RagwasmError && e.code === 'INVALID_ARGUMENT', String(bad));
  }
  assert.throws(() => new RequestLedger({ maxEntrys: 5 }), (e) => e.code === 'INVALID_ARGUMENT');
  const ledger = new RequestLedger({ maxEntries: 1 });
  origin.reset();
  origin.always({ json: openaiJson('[scripted]') });
  const c = client('openai', { ledger });
  await c.complete(ask);
  await c.complete(ask);
  assert.equal(ledger.entries.length, 1);
  assert.equal(ledger.dropped, 1);
  assert.equal(ledger.entries[0].seq, 2);
});
