// @ts-check
// Argument validation shared by every public function: types, integers, NaN, ranges, sizes,
// holes, cycles, nesting depth and unknown option names, each failing with a RagwasmError
// ('INVALID_ARGUMENT' or 'LIMIT_EXCEEDED') naming the parameter (and the index, for elements).
// Arrays are walked with index-based loops after their `length` was checked against a limit, so a
// hole is seen (forEach/map skip holes) and `a.length = 2 ** 32 - 1` is refused before any work.
import { RagwasmError } from './errors.js';
import { MAX_JSON_DEPTH, MAX_SEARCH_K } from './limits.js';

/** Default most items an array argument may have when the caller documents no smaller limit. */
export const MAX_ARRAY_ITEMS = 10_000_000;
/** Deepest nesting of objects/arrays walked recursively or turned into JSON: the core's JSON depth limit. */
export const MAX_NESTING_DEPTH = MAX_JSON_DEPTH;

/**
 * Short description of a value for error messages ("NaN", "a string", "an array of 3").
 * Never throws: Proxies, revoked Proxies and objects whose `Symbol.toStringTag` getter, `length`
 * or `constructor` throws are described as "an object".
 */
export function describe(value) {
  try {
    if (value === null) return 'null';
    if (value === undefined) return 'undefined';
    if (typeof value === 'number') {
      if (Number.isNaN(value)) return 'NaN';
      return Object.is(value, -0) ? '-0' : String(value);
    }
    if (typeof value === 'string') return value.length > 40 ? `a string of length ${value.length}` : JSON.stringify(value);
    if (typeof value === 'bigint') return value > 10n ** 20n || value < -(10n ** 20n) ? 'a BigInt' : `${value}n`;
    if (typeof value === 'boolean') return String(value);
    if (typeof value === 'function') return 'a function';
    if (typeof value === 'symbol') return 'a symbol';
  } catch {
    return 'a value';
  }
  // Objects: each probe may run user code (Proxy traps, getters), so each is guarded.
  try {
    if (Array.isArray(value)) {
      const n = value.length;
      return typeof n === 'number' ? `an array of ${n}` : 'an array';
    }
  } catch {
    return 'an object';
  }
  try {
    if (ArrayBuffer.isView(value)) {
      const tag = Object.prototype.toString.call(value).slice(8, -1);
      return `a ${tag} of ${/** @type {any} */ (value).length ?? value.byteLength}`;
    }
  } catch {
    return 'an object';
  }
  try {
    const tag = Object.prototype.toString.call(value).slice(8, -1);
    return `an object (${typeof tag === 'string' && tag.length <= 40 ? tag : 'Object'})`;
  } catch {
    return 'an object';
  }
}

export function invalid(name, expected, value) {
  return new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: expected ${expected}, got ${describe(value)}`);
}

function tooMany(name, maxLength, length, unit = 'items') {
  return new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: at most ${maxLength} ${unit} allowed, got ${length}`);
}

/**
 * Array.isArray that treats a revoked Proxy (which makes Array.isArray throw) as "not an array".
 * @param {unknown} value
 * @returns {value is any[]}
 */
export function isArray(value) {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** A string of at most maxLength UTF-16 units. */
export function expectString(value, name, { maxLength = Infinity, allowEmpty = true } = {}) {
  if (typeof value !== 'string') throw invalid(name, 'a string', value);
  if (!allowEmpty && value.length === 0) throw invalid(name, 'a non-empty string', value);
  if (value.length > maxLength) throw tooMany(name, maxLength, value.length, 'characters');
  return value;
}

/** An integer (Number.isInteger) in [min, max]. */
export function expectInteger(value, name, { min = -Infinity, max = Infinity } = {}) {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(name, 'an integer', value);
  if (value < min || value > max) throw invalid(name, `an integer in [${min}, ${max}]`, value);
  return value;
}

/**
 * A search's k: an integer in [1, MAX_SEARCH_K] (100,000), the one rule of every search entry point.
 * @throws {RagwasmError} INVALID_ARGUMENT "<name>: expected an integer in [1, 100000], got …"
 */
export function expectSearchK(value, name = 'options.k') {
  return expectInteger(value, name, { min: 1, max: MAX_SEARCH_K });
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

/**
 * One of the listed string values.
 * @template {string} T
 * @param {unknown} value
 * @param {string} name
 * @param {readonly T[]} allowed
 * @returns {T}
 */
export function expectEnum(value, name, allowed) {
  if (typeof value !== 'string' || !(/** @type {readonly string[]} */ (allowed)).includes(value)) throw invalid(name, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  return /** @type {T} */ (value);  // one of `allowed`: checked just above
}

/**
 * An array of at most maxLength items (default MAX_ARRAY_ITEMS), checked before any iteration.
 * Every index 0..length-1 is visited (holes included): a hole is rejected as `undefined` with its
 * index named ("references[0]: expected a string, got undefined (a hole)"); each item is checked by
 * `item(value, name)` when given. Returns a dense copy, so later reads cannot differ from what was
 * checked (a Proxy or getter cannot hand out a second, unchecked value).
 * @param {unknown} value
 * @param {string} name
 * @param {{maxLength?: number, item?: (value: any, name: string) => any}} [options]
 * @returns {any[]}
 */
export function expectArray(value, name, { maxLength = MAX_ARRAY_ITEMS, item } = {}) {
  if (!isArray(value)) throw invalid(name, 'an array', value);
  const length = value.length;
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) throw invalid(name, 'an array', value);
  if (length > maxLength) throw tooMany(name, maxLength, length);
  const out = new Array(length);
  for (let i = 0; i < length; i++) {
    const at = `${name}[${i}]`;
    if (!(i in value)) {
      if (item) {
        try {
          item(undefined, at);
        } catch (e) {
          if (e instanceof RagwasmError) throw new RagwasmError(e.code, `${e.message} (a hole)`);
          throw e;
        }
      }
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${at}: expected a value, got undefined (a hole)`);
    }
    const v = value[i];
    if (item) item(v, at);
    out[i] = v;
  }
  return out;
}

/**
 * Numbers as a Float32Array or Float64Array or an array of finite numbers; `length` is checked
 * against `dimension` (exact, DIMENSION_MISMATCH) or `maxLength` before anything is copied.
 * Returns a Float32Array (a copy for arrays, the same object for a Float32Array).
 * @param {unknown} value
 * @param {string} name
 * @param {{dimension?: number, maxLength?: number}} [options]
 * @returns {Float32Array}
 */
export function expectFloatVector(value, name, { dimension, maxLength = MAX_ARRAY_ITEMS } = {}) {
  let isTyped = false;
  try {
    isTyped = value instanceof Float32Array || value instanceof Float64Array;
  } catch {
    isTyped = false;
  }
  if (!isTyped && !isArray(value)) throw invalid(name, 'a Float32Array or an array of numbers', value);
  const values = /** @type {ArrayLike<unknown>} */ (value);  // checked just above
  const length = values.length;
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) throw invalid(name, 'a Float32Array or an array of numbers', value);
  if (dimension !== undefined && length !== dimension) {
    throw new RagwasmError('DIMENSION_MISMATCH', `ragwasm: ${name}: has ${length} values, the index expects dimension ${dimension}`);
  }
  if (length > maxLength) throw tooMany(name, maxLength, length, 'values');
  if (value instanceof Float32Array) return value;
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const x = i in values ? values[i] : undefined;
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw invalid(`${name}[${i}]`, 'a finite number', x === undefined && !(i in values) ? undefined : x);
    }
    out[i] = x;
  }
  return out;
}

/**
 * A value made of plain objects, arrays, strings, finite numbers, booleans and null, nested at most
 * `maxDepth` levels and without cycles, walked iteratively (no stack overflow on a 20,000-deep
 * value). Use before JSON.stringify or any recursive walk of a caller's object.
 */
export function expectJsonValue(value, name, { maxDepth = MAX_NESTING_DEPTH, maxNodes = MAX_ARRAY_ITEMS } = {}) {
  const stack = [[value, name, 0]];
  const open = new Set();
  let nodes = 0;
  // A closing entry removes an object from `open` after its children: shared, non-cyclic references pass.
  while (stack.length > 0) {
    const [v, path, depth, closing] = stack.pop();
    if (closing) { open.delete(v); continue; }
    if (++nodes > maxNodes) throw tooMany(name, maxNodes, `more (counting nested values)`, 'values');
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw invalid(path, 'a finite number', v);
      continue;
    }
    if (typeof v !== 'object') throw invalid(path, 'a JSON value (object, array, string, number, boolean or null)', v);
    if (depth >= maxDepth) {
      throw new RagwasmError('LIMIT_EXCEEDED', `ragwasm: ${name}: JSON nested deeper than ${maxDepth} levels (at ${path.length > 200 ? `${path.slice(0, 200)}…` : path})`);
    }
    if (open.has(v)) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${path}: a cycle (the value contains itself)`);
    open.add(v);
    stack.push([v, path, depth, true]);
    if (isArray(v)) {
      const items = expectArray(v, path, { maxLength: maxNodes });
      for (let i = items.length - 1; i >= 0; i--) stack.push([items[i], `${path}[${i}]`, depth + 1]);
    } else {
      if (!isPlainObject(v)) throw invalid(path, 'a plain object', v);
      const keys = Object.keys(v);
      if (keys.length > maxNodes) throw tooMany(path, maxNodes, keys.length, 'keys');
      for (let i = keys.length - 1; i >= 0; i--) stack.push([v[keys[i]], `${path}.${keys[i]}`, depth + 1]);
    }
  }
  return value;
}

/** True for {} / Object.create(null) objects; false (never a throw) for Proxies whose traps throw. */
export function isPlainObject(value) {
  if (value === null || typeof value !== 'object' || isArray(value)) return false;
  try {
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  } catch {
    return false;
  }
}

/**
 * An options object (undefined → {}) whose keys are all in `known`; unknown keys are errors so that
 * typos ("chunkOverlapp") do not silently fall back to defaults.
 */
export function expectOptions(value, name, known) {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw invalid(name, 'an options object', value);
  let keys;
  try {
    keys = Object.keys(value);
  } catch {
    throw invalid(name, 'an options object', value);
  }
  for (const key of keys) {
    if (!known.includes(key)) {
      throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${name}: unknown option '${key.length > 60 ? `${key.slice(0, 60)}…` : key}' (known: ${known.join(', ')})`);
    }
  }
  return value;
}

/**
 * Guards a constructor that only the library's factories call (they pass internal objects): a
 * direct `new X(...)` with anything else fails with INVALID_ARGUMENT naming the factory to use.
 */
export function expectInternal(ok, className, factory) {
  if (!ok) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: new ${className}(): not constructible directly; use ${factory}`);
}

/**
 * True for a non-null object (arrays and class instances included) whose properties can be read:
 * false, never a throw, for a revoked Proxy (every property read on it throws).
 */
export function isObject(value) {
  if (value === null || typeof value !== 'object') return false;
  try {
    Reflect.getPrototypeOf(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * `value instanceof Ctor` that answers false (never throws) for a revoked Proxy.
 * @template T
 * @param {unknown} value
 * @param {Function & {prototype: T}} Ctor a class (its constructor may be private in the .d.ts)
 * @returns {value is T}
 */
export function isInstance(value, Ctor) {
  try {
    return value instanceof Ctor;
  } catch {
    return false;
  }
}

/** True when `value[name]` is a function; false (never a throw) for revoked Proxies and throwing getters. */
export function hasMethod(value, name) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    return typeof value[name] === 'function';
  } catch {
    return false;
  }
}
