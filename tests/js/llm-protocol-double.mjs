// ProtocolTestDouble: a local HTTP server on 127.0.0.1 that speaks the OpenAI Chat Completions and
// Anthropic Messages wire protocols with SCRIPTED replies, for the LLM client tests. It is a protocol
// test double, not a model: its replies are fixed strings written in the tests and never say
// anything about any model's quality.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { RagwasmError } from '../../web/src/index.js';

/**
 * A scripted reply. One of:
 *   {status, headers?, json}             a JSON reply (any status)
 *   {status?, headers?, body}            a raw body (e.g. malformed JSON)
 *   {sse: string[], truncate?: boolean, cut?: boolean, chunkDelayMs?: number}  an event stream; each
 *                                        string is one raw event block ("data: {...}"); truncate drops
 *                                        nothing: pass events without their end marker; it adds half an event and ends the body cleanly;
 *                                        cut (with truncate) drops the connection instead
 *   {hang: true}                         accept the request and never answer (timeouts, aborts)
 *   {destroy: true}                      close the socket without an answer (network error)
 *   redirectTo(status, url)              a 3xx with a Location header (the client must not follow it)
 *   (req) => reply                       computed from the recorded request
 * delayMs on any reply delays the status line.
 */
export class ProtocolTestDouble {
  constructor() {
    this.script = [];
    this.fallback = null;
    this.requests = [];
    this.inFlight = 0;
    this.maxInFlight = 0;
    this.sockets = new Set();
    this.connections = 0;  // TCP connections accepted since start (a redirect target must see none)
  }

  static async start() {
    const d = new ProtocolTestDouble();
    d.server = createServer((req, res) => d.#handle(req, res));
    d.server.on('connection', (s) => { d.connections++; d.sockets.add(s); s.on('close', () => d.sockets.delete(s)); });
    await new Promise((resolve) => d.server.listen(0, '127.0.0.1', resolve));
    d.port = d.server.address().port;
    d.origin = `http://127.0.0.1:${d.port}`;
    return d;
  }

  /** Queues replies, used in order; `always` answers every request once the queue is empty. */
  enqueue(...replies) { this.script.push(...replies); return this; }
  always(reply) { this.fallback = reply; return this; }
  reset() { this.script = []; this.fallback = null; this.requests = []; this.maxInFlight = 0; }

  async close() {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  async #handle(req, res) {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body = null;
    try { body = JSON.parse(raw); } catch { /* recorded raw */ }
    const record = { method: req.method, path: req.url, headers: req.headers, raw, body, time: Date.now() };
    this.requests.push(record);
    let reply = this.script.length ? this.script.shift() : this.fallback;
    if (typeof reply === 'function') reply = reply(record);
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'protocol test double: no scripted reply left' } }));
      return;
    }
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    // In flight until the reply is fully written or the client goes away, whichever comes first.
    let counted = true;
    const done = () => { if (counted) { counted = false; this.inFlight--; } };
    res.on('finish', done);
    res.on('close', done);
    {
      if (reply.delayMs) await delay(reply.delayMs);
      if (reply.hang) return;  // the client times out or aborts
      if (reply.destroy) {
        req.socket.destroy();
        return;
      }
      if (reply.sse) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...(reply.headers ?? {}) });
        const events = reply.sse;
        record.sseWritten = 0;  // events written before the client went away (record.clientGone)
        for (const ev of events) {
          if (res.destroyed) {
            record.clientGone = true;
            return;
          }
          res.write(`${ev}\n\n`);
          record.sseWritten++;
          if (reply.chunkDelayMs) await delay(reply.chunkDelayMs);
        }
        if (reply.truncate) res.write('data: {"choices":[{"delta":{"content":"cut');  // half an event
        if (reply.cut) {
          await delay(30);  // let the written events reach the client first
          req.socket.destroy();  // the connection drops mid-stream (no chunked terminator)
          return;
        }
        res.end();  // a clean end of the HTTP body, but without the protocol's end marker
        return;
      }
      const headers = { 'content-type': reply.json !== undefined ? 'application/json' : 'text/plain', ...(reply.headers ?? {}) };
      res.writeHead(reply.status ?? 200, headers);
      res.end(reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? ''));
    }
  }
}

function delay(ms) { return new Promise((r) => setTimeout(r, ms)); }

/** A redirect reply: `status` (301/302/303/307/308) with `location` and a small body. */
export function redirectTo(status, location) {
  return { status, headers: { location }, body: `moved to ${location}` };
}

/** OpenAI Chat Completions JSON reply carrying a scripted text. */
export function openaiJson(text, usage = { prompt_tokens: 11, completion_tokens: 7 }) {
  return {
    id: 'chatcmpl-double', object: 'chat.completion', model: 'double-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** OpenAI SSE event blocks for text pieces, a usage chunk, then [DONE]. */
export function openaiSse(pieces, usage = { prompt_tokens: 11, completion_tokens: 7 }) {
  const ev = (o) => `data: ${JSON.stringify(o)}`;
  const base = { id: 'chatcmpl-double', object: 'chat.completion.chunk', model: 'double-model' };
  return [
    ev({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }),
    ...pieces.map((p) => ev({ ...base, choices: [{ index: 0, delta: { content: p }, finish_reason: null }] })),
    ev({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    ev({ ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }),
    'data: [DONE]',
  ];
}

/** Anthropic Messages JSON reply. */
export function anthropicJson(text, usage = { input_tokens: 13, output_tokens: 5 }) {
  return { id: 'msg_double', type: 'message', role: 'assistant', model: 'double-model',
    content: [{ type: 'text', text }], stop_reason: 'end_turn', usage };
}

/** Anthropic SSE event blocks (message_start ... message_stop). */
export function anthropicSse(pieces, usage = { input_tokens: 13, output_tokens: 5 }) {
  const ev = (type, o) => `event: ${type}\ndata: ${JSON.stringify({ type, ...o })}`;
  return [
    ev('message_start', { message: { id: 'msg_double', type: 'message', role: 'assistant', model: 'double-model', content: [], usage: { input_tokens: usage.input_tokens, output_tokens: 1, cache_read_input_tokens: usage.cache_read_input_tokens ?? 0 } } }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ': a comment line the parser must ignore',
    'event: ping\ndata: {"type": "ping"}',
    ...pieces.map((p) => ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: p } })),
    ev('content_block_stop', { index: 0 }),
    ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: usage.output_tokens } }),
    ev('message_stop', {}),
  ];
}

/** Awaits `promise`, asserts it rejects with a RagwasmError of `code` whose message does not hold `secret`; returns the error. */
export async function rejectsWith(promise, code, secret) {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof RagwasmError, `expected RagwasmError, got ${e}`);
    assert.equal(e.code, code, e.message);
    if (secret) assert.ok(!e.message.includes(secret), 'the API key leaked into an error message');
    return e;
  }
  assert.fail(`expected a ${code} error`);
}

/**
 * Scripted judge replies for the RAG triad, chosen by the prompt: every passage grades 2 (context
 * relevance 2/3), every answer 1 (answer relevance 1/3), every claim 3 (groundedness 1); a document
 * summary request gets `summary(userText)`, anything else a correctness of 80%.
 */
export function triadScript(summary = () => 'A zanzibarite summary.') {
  return (req) => {
    const system = req.body.messages[0].content;
    const c = req.body.messages[1].content;
    const user = typeof c === 'string' ? c : c.map((p) => p.text).join('\n');
    if (/document summaries/.test(system)) return { json: openaiJson(summary(user)) };
    if (/relevance assessor/.test(system)) return { json: openaiJson('Score: 2') };
    if (/responds to the question/.test(system)) return { json: openaiJson('Score: 1') };
    if (/supported by source passages/.test(system)) {
      const n = (user.split('Claims:')[1].match(/^\[\d+\]/gm) ?? []).length;
      return { json: openaiJson(Array.from({ length: n }, (_, i) => `[${i + 1}] Score: 3 | Evidence: none`).join('\n')) };
    }
    return { json: openaiJson('[scripted] Correctness: 80%') };
  };
}
