// @ts-check
// Bytes of a model or file option: an ArrayBuffer, Uint8Array, Blob/File, Response, a URL (fetch;
// file: URLs in Node) or, in Node, a file path; optionally kept in Cache Storage in browsers. The one
// place every model/tokenizer/file option is read.
import { RagwasmError } from './errors.js';
import { invalid, isInstance } from './validate.js';
import { isNode, nodeBuiltin } from './node.js';

/**
 * Reads model bytes from an ArrayBuffer, Uint8Array, Blob/File, Response, URL (fetch; file: URLs in
 * Node) or a file path string (Node).
 * @internal
 * @param {unknown} source
 * @param {string} name
 * @param {{cache?: boolean, signal?: AbortSignal}} [options]
 */
export async function sourceBytes(source, name, { cache = false, signal } = {}) {
  if (isInstance(source, Uint8Array)) return source;
  if (isInstance(source, ArrayBuffer)) return new Uint8Array(source);
  if (typeof Blob !== 'undefined' && isInstance(source, Blob)) return new Uint8Array(await source.arrayBuffer());
  if (typeof Response !== 'undefined' && isInstance(source, Response)) {
    if (!source.ok) throw new RagwasmError('HTTP', `ragwasm: ${name}: ${source.url || 'the Response'} answered HTTP ${source.status}`);
    return new Uint8Array(await source.arrayBuffer());
  }
  if (typeof source === 'string' || isInstance(source, URL)) {
    let url;
    try {
      // In Node a string without a scheme (2+ letters, so C:\ is a path) is a file path relative to the working folder.
      url = isNode && typeof source === 'string' && !/^[A-Za-z][A-Za-z0-9+.-]+:/.test(source)
        ? nodeBuiltin('url').pathToFileURL(nodeBuiltin('path').resolve(source))
        : new URL(String(source), typeof location !== 'undefined' ? location.href : undefined);
    } catch {
      throw invalid(name, 'a file path (Node), an absolute URL, ArrayBuffer, Uint8Array, Blob or Response', source);
    }
    if (url.protocol === 'file:') {
      const fs = nodeBuiltin('fs/promises');
      try {
        return new Uint8Array(await fs.readFile(url));
      } catch (e) {
        throw new RagwasmError('NOT_FOUND', `ragwasm: ${name}: cannot read ${url.href}: ${e.message}`, { cause: e });
      }
    }
    // Browser: keep model bytes in Cache Storage so a reload does not download them again.
    // Best effort: a cache that cannot be opened or read (private mode, quota, SecurityError) only
    // means downloading. Keyed by URL: a changed file at the same URL needs caches.delete('ragwasm-models-v1').
    let store = null;
    if (cache && typeof caches !== 'undefined') {
      try {
        store = await caches.open('ragwasm-models-v1');
        const hit = await store.match(url.href);
        if (hit) return new Uint8Array(await hit.arrayBuffer());
      } catch {
        store = null;
      }
    }
    let res;
    try {
      res = await fetch(url.href, { signal });
    } catch (e) {
      if (signal && signal.aborted) throw new RagwasmError('ABORTED', `ragwasm: ${name}: download aborted`, { cause: e });
      throw new RagwasmError('NETWORK', `ragwasm: ${name}: cannot fetch ${url.href}: ${e.message}`, { cause: e });
    }
    if (!res.ok) throw new RagwasmError('HTTP', `ragwasm: ${name}: ${url.href} answered HTTP ${res.status}`);
    const buf = await res.arrayBuffer();
    if (store) {
      try {
        await store.put(url.href, new Response(buf.slice(0)));
      } catch {
        // Quota full or storage refused: the model still loads, it is just fetched again next time.
      }
    }
    return new Uint8Array(buf);
  }
  throw invalid(name, 'an ArrayBuffer, Uint8Array, File/Blob or URL', source);
}

