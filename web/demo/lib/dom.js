// Small DOM helpers shared by the demo pages. Every string becomes a Text node (never parsed as
// HTML), so document and LLM text cannot inject markup or script.

/**
 * Builds an element: h('button', {class: 'x', onclick: fn, 'aria-label': 'Up'}, 'text', childNode).
 * Attributes starting with "on" become event listeners; `dataset` takes an object; `hidden`,
 * `disabled`, `checked`, `value`, `selected` are set as properties. Strings/numbers are text.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, ...children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Same as h() in the SVG namespace. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, ...children);
  return el;
}

const PROPS = new Set(['hidden', 'disabled', 'checked', 'value', 'selected', 'indeterminate', 'open']);

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false && !PROPS.has(k)) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'text') el.textContent = String(v);
    else if (PROPS.has(k)) el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

/** Appends children: nodes as is, strings/numbers as Text nodes, arrays flattened, null skipped. */
export function append(el, ...children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Replaces all children of el. */
export function setChildren(el, ...children) {
  el.replaceChildren();
  return append(el, ...children);
}

/** Formats a number with fixed decimals (default 4), as trec_eval prints. */
export function fmt(x, digits = 4) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return String(x);
  return x.toFixed(digits);
}

/** A user-facing error message from anything thrown (RagwasmError code + message). */
export function errorText(e) {
  if (!e) return 'unknown error';
  const code = e.code ? `${e.code}: ` : '';
  return `${code}${e.message || String(e)}`;
}

/** Shows a message in a status element (role=status) with state ok|err|busy. */
export function setStatus(el, text, state = '') {
  el.textContent = text;
  el.className = `status${state ? ` ${state}` : ''}`;
  el.dataset.state = state || 'idle';
}

/** Debounces fn by ms. */
export function debounce(fn, ms) {
  let t = 0;
  return (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), ms); };
}

/** Catches errors the page did not handle and shows them in words instead of a blank page. */
export function installErrorBanner() {
  const show = (msg) => {
    let el = document.getElementById('page-error');
    if (!el) {
      el = h('div', { id: 'page-error', class: 'page-error', role: 'alert' });
      document.body.prepend(el);
    }
    el.textContent = `Something went wrong: ${msg}`;
  };
  addEventListener('error', (e) => show(e.message || 'script error'));
  addEventListener('unhandledrejection', (e) => show(errorText(e.reason)));
}
