// @ts-check
// Which objects are LlmClients. Kept apart from client.js so the steps its methods call (answer.js,
// enrich.js, clarify.js, expand.js) can check their client without importing client.js (no import cycle).
import { RagwasmError } from '../core/errors.js';

const clients = new WeakSet();

/** @internal Called by the LlmClient constructor. */
export function registerLlmClient(client) {
  clients.add(client);
}

/** True for an LlmClient made by createLlmClient / new LlmClient. */
export function isLlmClient(value) {
  return value !== null && typeof value === 'object' && clients.has(value);
}

/**
 * Throws unless `client` is an LlmClient.
 * @internal
 * @throws {RagwasmError} INVALID_ARGUMENT
 */
export function expectLlmClient(client, name = 'client') {
  if (!isLlmClient(client)) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: expected an LlmClient (createLlmClient)`);
  return client;
}
