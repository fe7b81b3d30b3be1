// @ts-check
// The endpoint URL of an LLM client from its baseUrl: the provider's path goes into the URL's path
// (before a query string, which stays in place: #30 L-3), and a baseUrl holding credentials
// (user:password@host) is refused without repeating it, so a password never reaches the request
// ledger, an error message or toJSON() (#30 L-2; send credentials with apiKey or headers instead).
import { invalid } from '../core/validate.js';
import { RagwasmError } from '../core/errors.js';

/**
 * @param {'openai'|'anthropic'} provider
 * @param {string} baseUrl e.g. 'https://api.openai.com/v1', 'https://gw.example/v1?api-version=2024'
 * @returns {{url: string, host: string}} url: the endpoint (…/chat/completions or …/v1/messages, query kept)
 * @throws {RagwasmError} INVALID_ARGUMENT (not an absolute http(s) URL; credentials in the URL; a #fragment)
 */
export function endpointFor(provider, baseUrl) {
  let u;
  try {
    u = new URL(baseUrl);
  } catch {
    throw invalid('options.baseUrl', 'an absolute http(s) URL', baseUrl.includes('@') ? '(a value with "@", not repeated: it may hold a password)' : baseUrl);
  }
  if (u.username !== '' || u.password !== '') {
    throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: options.baseUrl: credentials in the URL (user:password@${u.host}) are not accepted, `
      + 'so they never reach the request ledger or an error message; pass apiKey, or headers: {authorization: \'Basic …\'} (marked secret)');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalid('options.baseUrl', 'an http(s) URL', baseUrl);
  if (u.hash !== '') throw invalid('options.baseUrl', 'a URL without a #fragment (it is never sent)', baseUrl);
  const base = u.pathname.replace(/\/+$/, '');
  u.pathname = provider === 'anthropic' ? (base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`) : `${base}/chat/completions`;
  return { url: u.href, host: u.host };
}
