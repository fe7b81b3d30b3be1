// @ts-check
// Two paired score vectors checked and copied into typed arrays for src/metrics/agreement.h, shared by
// judge agreement (agreement.js) and system comparison (compare.js); a 0/0 statistic becomes null.
import { RagwasmError } from '../core/errors.js';
import { expectInteger, expectNumber, invalid, isArray, isInstance } from '../core/validate.js';

export function pair(a, b, integers, name) {
  const check = integers ? (v, n) => expectInteger(v, n, { min: -2147483647, max: 2147483647 }) : (v, n) => expectNumber(v, n);
  const isArr = (x) => isArray(x) || isInstance(x, Float64Array) || isInstance(x, Int32Array) || isInstance(x, Float32Array);
  if (!isArr(a)) throw invalid(`${name} a`, 'an array of numbers', a);
  if (!isArr(b)) throw invalid(`${name} b`, 'an array of numbers', b);
  if (a.length !== b.length) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: expected two vectors of the same length, got ${a.length} and ${b.length}`);
  if (a.length === 0) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: expected at least 1 value, got 0`);
  for (let i = 0; i < a.length; i++) { check(a[i], `${name} a[${i}]`); check(b[i], `${name} b[${i}]`); }
  return integers ? [Int32Array.from(a), Int32Array.from(b)] : [Float64Array.from(a), Float64Array.from(b)];
}

// A statistic that is undefined for the input (0/0) is null in results, never NaN.
export function undefinedAsNull(v) { return Number.isNaN(v) ? null : v; }
