// @ts-check
// Seeded sampling for goldens: a mulberry32 Fisher-Yates shuffle, so a sample of chunks or a
// train/test split is the same on every machine for the same seed.
import { expectArray, expectInteger, expectNumber, expectOptions, invalid } from '../core/validate.js';

/**
 * Seeded uniform random numbers in [0, 1) (mulberry32): the same sequence in every run and build.
 * Also the tests' seeded source (tests/js/helpers.mjs re-exports it).
 * @param {number} seed
 * @returns {() => number}
 */
export function seededRandom(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A seeded shuffle (mulberry32 Fisher-Yates) of a copy of `items`.
 * @template T
 * @param {T[]} items
 * @param {number} seed integer 0..2^32-1
 * @returns {T[]}
 */
export function seededShuffle(items, seed) {
  const out = expectArray(items, 'items', { maxLength: 100000000 });
  const rand = seededRandom(expectInteger(seed, 'seed', { min: 0, max: 4294967295 }));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * A seeded train/test split: the shuffled items, the first round(n * trainFraction) to train
 * (at least 1 and at most n-1 when n >= 2); each half keeps the input order.
 * @template T
 * @param {T[]} items
 * @param {{seed?: number, trainFraction?: number}} [options] seed default 16, trainFraction default 0.5 (0..1 exclusive)
 * @returns {{train: T[], test: T[], seed: number}}
 */
export function splitTrainTest(items, options = {}) {
  const o = expectOptions(options, 'splitTrainTest options', ['seed', 'trainFraction']);
  const list = expectArray(items, 'items', { maxLength: 100000000 });
  const seed = o.seed === undefined ? 16 : expectInteger(o.seed, 'options.seed', { min: 0, max: 4294967295 });
  const fraction = o.trainFraction === undefined ? 0.5 : expectNumber(o.trainFraction, 'options.trainFraction', { min: Number.MIN_VALUE, max: 0.999999 });
  const order = seededShuffle(list.map((_, i) => i), seed);
  let nTrain = Math.round(list.length * fraction);
  if (list.length >= 2) nTrain = Math.min(Math.max(nTrain, 1), list.length - 1);
  const inTrain = new Set(order.slice(0, nTrain));
  return { train: list.filter((_, i) => inTrain.has(i)), test: list.filter((_, i) => !inTrain.has(i)), seed };
}

/**
 * A seeded train/validation/test split (the finance study's 40/20/20 is trainFraction 0.5,
 * validationFraction 0.25): the shuffled items, the first round(n * trainFraction) to train, the next
 * round(n * validationFraction) to validation, the rest to test; with n >= 3 each part has at least
 * one item. Each part keeps the input order.
 * @template T
 * @param {T[]} items
 * @param {{seed?: number, trainFraction?: number, validationFraction?: number}} [options] seed default 16,
 *   trainFraction default 0.5, validationFraction default 0.25; their sum below 1
 * @returns {{train: T[], validation: T[], test: T[], seed: number}}
 * @throws {RagwasmError} INVALID_ARGUMENT (fractions out of range, fewer than 3 items)
 */
export function splitTrainValidationTest(items, options = {}) {
  const o = expectOptions(options, 'splitTrainValidationTest options', ['seed', 'trainFraction', 'validationFraction']);
  const list = expectArray(items, 'items', { maxLength: 100000000 });
  const seed = o.seed === undefined ? 16 : expectInteger(o.seed, 'options.seed', { min: 0, max: 4294967295 });
  const tf = o.trainFraction === undefined ? 0.5 : expectNumber(o.trainFraction, 'options.trainFraction', { min: 0, max: 0.999999 });
  const vf = o.validationFraction === undefined ? 0.25 : expectNumber(o.validationFraction, 'options.validationFraction', { min: Number.MIN_VALUE, max: 0.999999 });
  if (tf + vf >= 1) throw invalid('options.validationFraction', `less than ${1 - tf} (trainFraction + validationFraction must leave a test part)`, vf);
  if (list.length < 3) throw invalid('items', 'at least 3 items (a validation and a test part, and a train part when trainFraction > 0)', list.length);
  const n = list.length;
  const order = seededShuffle(list.map((_, i) => i), seed);
  let nTrain = Math.round(n * tf);
  if (tf > 0) nTrain = Math.max(nTrain, 1);
  let nVal = Math.max(1, Math.round(n * vf));
  // Leave at least one test item: take it from the larger of the two other parts.
  while (nTrain + nVal > n - 1) {
    if (nTrain > nVal || (nTrain === nVal && nTrain > 1)) nTrain -= 1;
    else nVal -= 1;
  }
  const part = new Map();
  order.forEach((idx, r) => part.set(idx, r < nTrain ? 'train' : r < nTrain + nVal ? 'validation' : 'test'));
  const pick = (p) => list.filter((_, i) => part.get(i) === p);
  return { train: pick('train'), validation: pick('validation'), test: pick('test'), seed };
}
