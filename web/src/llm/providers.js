// @ts-check
// Wire formats: OpenAI-compatible Chat Completions (OpenAI, Ollama, llama.cpp server, vLLM,
// LM Studio, OpenRouter) and Anthropic Messages. Builds request bodies and reads replies and
// stream events into one shape. No network code here (client.js does that).
import { RagwasmError } from '../core/errors.js';

/** @type {readonly ('openai'|'anthropic')[]} */
export const PROVIDERS = Object.freeze(['openai', 'anthropic']);

/** Endpoint URL of a provider for a base URL ("https://api.openai.com/v1", "http://127.0.0.1:11434/v1"). */
export function endpointUrl(provider, baseUrl) {
  const base = baseUrl.replace(/\/+$/, '');
  if (provider === 'anthropic') return base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
  return `${base}/chat/completions`;
}

function partsText(content) {
  return typeof content === 'string' ? content : content.map((p) => p.text).join('\n\n');
}

/**
 * Request body for one call.
 * @param {'openai'|'anthropic'} provider
 * @param {string} model
 * @param {{messages: Array<{role: string, content: string|Array<{text: string, cache?: boolean}>}>,
 *   maxTokens?: number, temperature?: number, stop?: string[], seed?: number}} request
 * @param {{stream: boolean, streamUsage: boolean}} mode
 */
export function buildBody(provider, model, request, mode) {
  if (provider === 'anthropic') {
    const system = [];
    const messages = [];
    for (const m of request.messages) {
      if (m.role === 'system') {
        if (typeof m.content === 'string') system.push({ type: 'text', text: m.content });
        else for (const p of m.content) system.push(block(p));
      } else {
        messages.push({ role: m.role, content: typeof m.content === 'string' ? m.content : m.content.map(block) });
      }
    }
    const body = { model, max_tokens: request.maxTokens ?? 1024, messages };
    if (system.length) body.system = system.length === 1 && !system[0].cache_control ? system[0].text : system;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.stop) body.stop_sequences = request.stop;
    if (mode.stream) body.stream = true;
    return body;
  }
  const body = {
    model,
    messages: request.messages.map((m) => ({ role: m.role, content: partsText(m.content) })),
  };
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.stop) body.stop = request.stop;
  if (request.seed !== undefined) body.seed = request.seed;
  if (mode.stream) {
    body.stream = true;
    if (mode.streamUsage) body.stream_options = { include_usage: true };
  }
  return body;
}

function block(p) {
  const b = { type: 'text', text: p.text };
  // Anthropic prompt caching: everything up to and including this block is cached.
  if (p.cache) b.cache_control = { type: 'ephemeral' };
  return b;
}

function parseError(host, what) {
  return new RagwasmError('PARSE_ERROR', `ragwasm: reply from ${host}: ${what}`);
}

/** Usage in one shape; null fields when the server did not report them. */
function usageOf(provider, u) {
  if (!u || typeof u !== 'object') return { inputTokens: null, outputTokens: null, cachedInputTokens: 0, cacheWriteTokens: 0 };
  if (provider === 'anthropic') {
    const cached = u.cache_read_input_tokens ?? 0;
    const written = u.cache_creation_input_tokens ?? 0;
    // Anthropic's input_tokens excludes cache reads and writes; we report the total input.
    const input = typeof u.input_tokens === 'number' ? u.input_tokens + cached + written : null;
    return { inputTokens: input, outputTokens: typeof u.output_tokens === 'number' ? u.output_tokens : null, cachedInputTokens: cached, cacheWriteTokens: written };
  }
  return {
    inputTokens: typeof u.prompt_tokens === 'number' ? u.prompt_tokens : null,
    outputTokens: typeof u.completion_tokens === 'number' ? u.completion_tokens : null,
    cachedInputTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
  };
}

/** Reads a complete (non-streamed) JSON reply. @throws PARSE_ERROR when the shape is wrong */
export function readReply(provider, json, host) {
  if (provider === 'anthropic') {
    if (!json || !Array.isArray(json.content)) throw parseError(host, 'expected a Messages object with a content array');
    const text = json.content.filter((b) => b && b.type === 'text' && typeof b.text === 'string').map((b) => b.text).join('');
    return { text, finishReason: json.stop_reason ?? null, usage: usageOf(provider, json.usage), model: json.model ?? null };
  }
  const choice = json && Array.isArray(json.choices) ? json.choices[0] : undefined;
  const content = choice?.message?.content;
  if (typeof content !== 'string' && content !== null) throw parseError(host, 'expected choices[0].message.content');
  return { text: content ?? '', finishReason: choice.finish_reason ?? null, usage: usageOf(provider, json.usage), model: json.model ?? null };
}

/**
 * Stream state machine: feed SSE events, get text deltas; `finish()` returns the result or throws
 * PARSE_ERROR for a stream that ended before its end marker (a truncated stream).
 */
export class StreamReader {
  constructor(provider, host) {
    this.provider = provider;
    this.host = host;
    this.text = '';
    this.finishReason = null;
    this.usage = usageOf(provider, null);
    this.model = null;
    this.done = false;
  }

  /** @returns {string} the text delta of this event ('' for none) */
  push(ev) {
    if (this.provider === 'openai') {
      if (ev.data === '[DONE]') {
        this.done = true;
        return '';
      }
      const j = parseJson(ev.data, this.host);
      if (j.error) throw new RagwasmError('HTTP', `ragwasm: error event from ${this.host}: ${String(j.error.message ?? JSON.stringify(j.error)).slice(0, 300)}`);
      if (j.model) this.model = j.model;
      if (j.usage) this.usage = usageOf('openai', j.usage);
      const c = Array.isArray(j.choices) ? j.choices[0] : undefined;
      if (c?.finish_reason) this.finishReason = c.finish_reason;
      const d = c?.delta?.content;
      if (typeof d === 'string') {
        this.text += d;
        return d;
      }
      return '';
    }
    const j = parseJson(ev.data, this.host);
    switch (j.type) {
      case 'message_start':
        this.model = j.message?.model ?? null;
        this.usage = usageOf('anthropic', j.message?.usage);
        return '';
      case 'content_block_delta':
        if (j.delta?.type === 'text_delta' && typeof j.delta.text === 'string') {
          this.text += j.delta.text;
          return j.delta.text;
        }
        return '';
      case 'message_delta':
        if (j.delta?.stop_reason) this.finishReason = j.delta.stop_reason;
        if (typeof j.usage?.output_tokens === 'number') this.usage.outputTokens = j.usage.output_tokens;
        return '';
      case 'message_stop':
        this.done = true;
        return '';
      case 'error':
        throw new RagwasmError('HTTP', `ragwasm: error event from ${this.host}: ${String(j.error?.type ?? '')} ${String(j.error?.message ?? '').slice(0, 300)}`.trim(),
          { errorType: j.error?.type });
      default:
        return '';  // ping, content_block_start/stop
    }
  }

  finish() {
    // OpenAI-compatible servers end with [DONE]; some local servers only send a finish_reason.
    const complete = this.done || (this.provider === 'openai' && this.finishReason !== null);
    if (!complete) throw parseError(this.host, `stream ended before its end marker after ${this.text.length} characters (truncated stream)`);
    return { text: this.text, finishReason: this.finishReason, usage: this.usage, model: this.model };
  }
}

function parseJson(data, host) {
  try {
    return JSON.parse(data);
  } catch {
    throw parseError(host, `malformed JSON in a stream event: ${JSON.stringify(data.slice(0, 80))}`);
  }
}
