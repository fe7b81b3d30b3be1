// Argument validation shared by every public function: types, integers, NaN, ranges, sizes and
// unknown option names, each failing with a RagwasmError('INVALID_ARGUMENT') naming the parameter.
import { RagwasmError } from './errors.js';

/** Short description of a value for error messages ("NaN", "a string", "an array of 3"). */
export function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') return value.length > 40 ? `a string of length ${value.length}` : JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of ${value.length}`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
}

export function invalid(name, expected, value) {
  return new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: expected ${expected}, got ${describe(value)}`);
}

/** A string of at most maxLength UTF-16 units. */
export function expectString(value, name, { maxLength = Infinity, allowEmpty = true } = {}) {
  if (typeof value !== 'string') throw invalid(name, 'a string', value);
  if (!allowEmpty && value.length === 0) throw invalid(name, 'a non-empty string', value);
  if (value.length > maxLength) {
    throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: at most ${maxLength} characters allowed, got ${value.length}`);
  }
  return value;
}

/** An integer (Number.isInteger) in [min, max]. */
export function expectInteger(value, name, { min = -Infinity, max = Infinity } = {}) {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(name, 'an integer', value);
  if (value < min || value > max) throw invalid(name, `an integer in [${min}, ${max}]`, value);
  return value;
}

/** A finite number in [min, max] (NaN and ±Infinity rejected). */
export function expectNumber(value, name, { min = -Infinity, max = Infinity } = {}) {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(name, 'a finite number', value);
  if (value < min || value > max) throw invalid(name, `a number in [${min}, ${max}]`, value);
  return value;
}

export function expectBoolean(value, name) {
  if (typeof value !== 'boolean') throw invalid(name, 'true or false', value);
  return value;
}

export function expectFunction(value, name) {
  if (typeof value !== 'function') throw invalid(name, 'a function', value);
  return value;
}

/** One of the listed string values. */
export function expectEnum(value, name, allowed) {
  if (typeof value !== 'string' || !allowed.includes(value)) throw invalid(name, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  return value;
}

/** An array of at most maxLength items; each item checked by `item(value, name)` when given. */
export function expectArray(value, name, { maxLength = Infinity, item } = {}) {
  if (!Array.isArray(value)) throw invalid(name, 'an array', value);
  if (value.length > maxLength) {
    throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: at most ${maxLength} items allowed, got ${value.length}`);
  }
  if (item) value.forEach((v, i) => item(v, `${name}[${i}]`));
  return value;
}

export function isPlainObject(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * An options object (undefined → {}) whose keys are all in `known`; unknown keys are errors so that
 * typos ("chunkOverlapp") do not silently fall back to defaults.
 */
export function expectOptions(value, name, known) {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw invalid(name, 'an options object', value);
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: unknown option '${key}' (known: ${known.join(', ')})`);
    }
  }
  return value;
}
