// @ts-check
// Token prices and per-call cost. Prices are user data (they change and differ per provider), so the
// table starts empty: a model without a price has cost null, never 0 (also for local servers).
import { RagwasmError } from '../core/errors.js';
import { describe, expectNumber, expectString, invalid, isPlainObject } from '../core/validate.js';

/**
 * @typedef {object} Price
 * @property {number} inputPerMTok price per million input tokens
 * @property {number} outputPerMTok price per million output tokens
 * @property {number} [cachedInputPerMTok] price per million cache-read input tokens (default inputPerMTok)
 * @property {number} [cacheWritePerMTok] price per million cache-write input tokens (default inputPerMTok)
 */

/** A user-settable price table: model name -> Price. Currency is whatever the user enters. */
export class PriceTable {
  /** @param {Record<string, Price>} [prices] */
  constructor(prices = {}) {
    if (!isPlainObject(prices)) throw invalid('prices', 'an object {model: {inputPerMTok, outputPerMTok}}', prices);
    this.prices = new Map();
    for (const model of Object.keys(prices)) this.set(model, prices[model]);
  }

  /** Sets the price of a model. @throws {RagwasmError} INVALID_ARGUMENT for negative or non-finite prices */
  set(model, price) {
    expectString(model, 'model', { allowEmpty: false, maxLength: 1000 });
    if (!isPlainObject(price)) throw invalid(`prices['${model.slice(0, 80)}']`, 'a price object {inputPerMTok, outputPerMTok}', price);
    for (const k of ['inputPerMTok', 'outputPerMTok', 'cachedInputPerMTok', 'cacheWritePerMTok']) {
      const v = price[k];
      if (v === undefined && (k === 'cachedInputPerMTok' || k === 'cacheWritePerMTok')) continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: prices['${model.slice(0, 80)}'].${k}: expected a finite number >= 0, got ${describe(v)}`);
      }
    }
    this.prices.set(model, { ...price });
    return this;
  }

  get(model) { return this.prices.get(expectString(model, 'model')); }

  /**
   * Cost of one call: (input - cached - cacheWrite) * in + cached * cachedIn + cacheWrite * write
   * + output * out, all per 1e6 tokens. null when the model has no price or usage is unknown.
   * @param {string} model
   * @param {{inputTokens: number|null, outputTokens: number|null, cachedInputTokens?: number, cacheWriteTokens?: number}} usage
   * @returns {number|null}
   */
  cost(model, usage) {
    expectString(model, 'model');
    if (usage === null || usage === undefined) return null;
    if (!isPlainObject(usage)) throw invalid('usage', 'a usage object {inputTokens, outputTokens}', usage);
    const p = this.prices.get(model);
    if (!p || usage.inputTokens == null || usage.outputTokens == null) return null;
    const tokens = (v, n) => expectNumber(v, `usage.${n}`, { min: 0, max: Number.MAX_SAFE_INTEGER });
    tokens(usage.inputTokens, 'inputTokens');
    tokens(usage.outputTokens, 'outputTokens');
    const cached = usage.cachedInputTokens == null ? 0 : tokens(usage.cachedInputTokens, 'cachedInputTokens');
    const written = usage.cacheWriteTokens == null ? 0 : tokens(usage.cacheWriteTokens, 'cacheWriteTokens');
    const plain = Math.max(0, usage.inputTokens - cached - written);
    return (plain * p.inputPerMTok + cached * (p.cachedInputPerMTok ?? p.inputPerMTok) +
      written * (p.cacheWritePerMTok ?? p.inputPerMTok) + usage.outputTokens * p.outputPerMTok) / 1e6;
  }
}
