// @ts-check
// Overrides of a pipeline config by dotted path: how a command's flags (`--k 5` = `retrieval.k: 5`)
// and an experiment grid's varied fields change a config file without a second meaning for either.
// The merged config is parsed once by parsePipelineConfig; an error caused by an override names the
// override (its source, e.g. the flag) and its config path.
import { RagwasmError } from '../core/errors.js';
import { expectArray, expectJsonValue, expectString, invalid, isPlainObject } from '../core/validate.js';
import { parsePipelineConfig } from './pipeline.js';

const PATH_RE = /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/;
const copy = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

/**
 * @internal (the experiment grid's too)
 * `config` with the dotted `path` set to `value` (null deletes the key); intermediate objects are
 * created. Returns a new object (JSON data; `config` is not changed).
 * @param {object|undefined} config
 * @param {string} path e.g. "retrieval.k"
 * @param {*} value JSON data, or null to delete the key
 * @returns {object}
 */
export function setConfigPath(config, path, value) {
  const out = copy(config) ?? {};
  const parts = path.split('.');
  let o = out;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!isPlainObject(o[parts[i]])) o[parts[i]] = {};
    o = o[parts[i]];
  }
  const last = parts[parts.length - 1];
  if (value === null) delete o[last];
  else o[last] = copy(value);
  return out;
}

/**
 * @internal
 * The value at a dotted path of a (raw) config, or undefined when a key on the way is missing.
 * @param {object|undefined} config
 * @param {string} path
 * @returns {*}
 */
export function getConfigPath(config, path) {
  let o = config;
  for (const p of path.split('.')) {
    if (!isPlainObject(o) || !Object.hasOwn(o, p)) return undefined;
    o = o[p];
  }
  return o;
}

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Applies overrides to a pipeline config and parses the result (parsePipelineConfig).
 *
 * @example
 * const { config, changed } = applyConfigOverrides(fileText, [{ path: 'retrieval.k', value: 5, source: '--k' }]);
 * for (const c of changed) console.error(`${c.source} overrides ${c.path} ${JSON.stringify(c.from)} of the config`);
 *
 * @param {string|object|undefined} config the config as written (JSON text or object; undefined = {})
 * @param {{path: string, value: *, source?: string}[]} overrides applied in order; `value` null deletes the key;
 *   `source` names where the override came from (a flag) in errors and in `changed`
 * @returns {{config: object, raw: object, changed: {path: string, source: string, from: *, to: *}[]}}
 *   config: normalized (every default filled in); raw: the merged config as written; changed: the
 *   overrides whose path the given config set to a different value (what the caller should say it replaced)
 * @throws {RagwasmError} PARSE_ERROR (malformed JSON text), INVALID_ARGUMENT naming the override
 *   ("--k (retrieval.k): expected an integer …") or the config's JSON path, as parsePipelineConfig
 */
export function applyConfigOverrides(config, overrides = []) {
  let raw;
  if (config === undefined) raw = {};
  else if (typeof config === 'string') {
    try {
      raw = JSON.parse(config);
    } catch {
      parsePipelineConfig(config);  // throws the parser's PARSE_ERROR with its position
      raw = undefined;
    }
    if (!isPlainObject(raw)) throw invalid('config', 'a JSON object', raw);
    expectJsonValue(raw, 'config');  // depth limit before anything recursive copies it (#30 F-3)
  } else if (isPlainObject(config)) {
    raw = copy(expectJsonValue(config, 'config'));
  } else {
    throw invalid('config', 'JSON text or a config object', config);
  }
  const list = expectArray(overrides, 'overrides', { maxLength: 1000 });
  const changed = [];
  const bySource = [];
  list.forEach((ov, i) => {
    if (!isPlainObject(ov)) throw invalid(`overrides[${i}]`, 'an override {path, value, source?}', ov);
    const path = expectString(ov.path, `overrides[${i}].path`, { allowEmpty: false, maxLength: 200 });
    if (!PATH_RE.test(path)) throw invalid(`overrides[${i}].path`, 'a dotted config path (e.g. "retrieval.k")', path);
    const source = ov.source === undefined ? path : expectString(ov.source, `overrides[${i}].source`, { allowEmpty: false, maxLength: 200 });
    if (ov.value === undefined) throw invalid(`overrides[${i}].value`, 'JSON data or null', ov.value);
    const value = ov.value === null ? null : expectJsonValue(ov.value, `overrides[${i}].value`);
    const from = getConfigPath(raw, path);
    if (from !== undefined && !sameJson(from, value)) changed.push({ path, source, from: copy(from), to: copy(value) });
    raw = setConfigPath(raw, path, value);
    bySource.push({ path, source });
  });
  let normalized;
  try {
    normalized = parsePipelineConfig(raw);
  } catch (e) {
    if (!(e instanceof RagwasmError)) throw e;
    const msg = e.message.replace(/^ragwasm: /, '');
    // The error of an overridden value names the override (the last one of that path wins).
    const hit = [...bySource].reverse().find((o) => msg.startsWith(`${o.path}: `) || msg.startsWith(`${o.path}[`) || msg.startsWith(`${o.path}.`));
    if (!hit || hit.source === hit.path) throw e;
    throw new RagwasmError(e.code, `ragwasm: ${hit.source} (${msg}`.replace(`(${hit.path}`, `(${hit.path})`), { path: hit.path });
  }
  return { config: normalized, raw, changed };
}
