// LLM endpoint options shared by the commands that call an LLM (label, questions, judge): the flags,
// and a client per model with one ledger and price table. The API key comes from an environment
// variable named by --api-key-env, never from a flag.
import { createLlmClient, PriceTable, RequestLedger } from '../../src/llm.js';
import { intOption, UsageError } from './options.mjs';

export const LLM_OPTIONS = {
  provider: { type: 'string', help: 'openai (any Chat Completions server) or anthropic', default: 'openai' },
  'base-url': { type: 'string', help: 'e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1' },
  model: { type: 'string', help: 'model name' },
  'api-key-env': { type: 'string', help: 'environment variable holding the API key (default OPENAI_API_KEY or ANTHROPIC_API_KEY)' },
  concurrency: { type: 'string', help: 'requests in flight', default: '4' },
  'timeout-ms': { type: 'string', help: 'per request', default: '60000' },
  'max-retries': { type: 'string', help: 'retries on 429/5xx/network errors', default: '3' },
  'price-in': { type: 'string', help: 'price per million input tokens (for cost)' },
  'price-out': { type: 'string', help: 'price per million output tokens (for cost)' },
  ledger: { type: 'string', help: 'write the request ledger (what was sent where) as JSONL' },
};

/**
 * A factory of clients for the --base-url endpoint sharing one ledger: clientFor(model).
 * @throws {UsageError} --base-url missing or an integer flag malformed
 */
export function llmClients(values) {
  if (!values['base-url']) throw new UsageError('--base-url is required (an OpenAI- or Anthropic-protocol endpoint)');
  const concurrency = intOption(values.concurrency, 'concurrency');
  const timeoutMs = intOption(values['timeout-ms'], 'timeout-ms');
  const maxRetries = intOption(values['max-retries'], 'max-retries', { min: 0 });
  const price = (name) => {
    if (values[name] === undefined) return 0;
    const v = Number(values[name]);
    if (!Number.isFinite(v) || v < 0) throw new UsageError(`--${name}: expected a number >= 0, got '${values[name]}'`);
    return v;
  };
  const priced = values['price-in'] !== undefined || values['price-out'] !== undefined;
  const prices = new PriceTable();
  const ledger = new RequestLedger();
  const keyEnv = values['api-key-env'] ?? (values.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY');
  const apiKey = process.env[keyEnv] || undefined;
  const clientFor = (model) => {
    if (priced) prices.set(model, { inputPerMTok: price('price-in'), outputPerMTok: price('price-out') });
    return createLlmClient({ provider: values.provider, baseUrl: values['base-url'], model, apiKey, concurrency, timeoutMs, maxRetries, prices, ledger });
  };
  return { clientFor, ledger };
}

/** "requests sent: N to host (bytes)" for the end of a command's output. */
export function ledgerLine(ledger) {
  return `requests sent: ${ledger.entries.length} to ${Object.entries(ledger.bytesByHost()).map(([h, b]) => `${h} (${b} bytes)`).join(', ') || 'nobody'}`;
}
