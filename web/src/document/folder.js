// @ts-check
// The one reader of document folders (Node): every CLI command that reads a dataset or a folder of
// documents goes through it (web/cli/datasets.mjs, `ragwasm ask --docs`, experiment, tune, label,
// export, index). Files are untrusted input (issue #33): a path must stay inside the folder after
// symbolic links are resolved (a manifest's "../../key" is refused), only regular files are opened
// (a FIFO, device or socket is a per-file error, never a hang), sizes are checked before reading
// (limits.maxFileBytes per file, limits.maxFolderBytes per reader) and reading itself stops at the
// limit (a file whose size is not known up front). Failures are per file: {file, code, message}.
import { RagwasmError } from '../core/errors.js';
import { nodeBuiltin } from '../core/node.js';
import { expectArray, expectBoolean, expectOptions, expectString, invalid, isArray, isPlainObject } from '../core/validate.js';
import { FILE_LIMITS, fileLimits } from './limits.js';
import { extractText, SUPPORTED_FORMATS, htmlToTextFallback } from './parse.js';
import { documentTitle } from './title.js';

const TEXT_FORMATS = new Set(['text', 'markdown', 'html']);

function fileError(code, file, what) {
  return Object.assign(new RagwasmError(code, `ragwasm: ${file}: ${what}`), { file, reason: what });
}

function kindOf(st) {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** The format of a file name by its extension (SUPPORTED_FORMATS), or null. */
function formatOfName(file) {
  const ext = (/\.([A-Za-z0-9]+)$/.exec(file) ?? [])[1]?.toLowerCase();
  return ext && SUPPORTED_FORMATS[ext] ? SUPPORTED_FORMATS[ext] : null;
}

const SUPPORTED_LIST = Object.keys(SUPPORTED_FORMATS).map((e) => '.' + e).join(' ');

/** A per-file failure as the readers report it: {file, code, message} (message without the "ragwasm: file: " prefix). */
export function fileFailure(file, e) {
  if (e instanceof RagwasmError) {
    const prefix = `ragwasm: ${file}: `;
    const message = ('reason' in e && typeof e.reason === 'string') ? e.reason : (e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message.replace(/^ragwasm: /, ''));
    return { file, code: e.code, message };
  }
  return { file, code: 'INTERNAL', message: String(e?.message ?? e) };
}

/**
 * Opens a folder for reading untrusted files (Node only).
 *
 * @example
 * const r = openFolder('examples/corpus');
 * const manifest = JSON.parse(r.readText('manifest.json'));
 *
 * @param {string} dir the folder; its real path (symbolic links resolved) is the boundary
 * @param {{limits?: Partial<typeof FILE_LIMITS>}} [options] limits default FILE_LIMITS
 * @returns {{root: string, limits: typeof FILE_LIMITS, bytesRead: number,
 *   resolve(file: string): string, readBytes(file: string): Uint8Array, readText(file: string, encoding?: 'utf-8'|'latin1'): string,
 *   readDocumentSync(file: string, options?: {id?: string, title?: string}): object,
 *   readDocument(file: string, options?: {id?: string, title?: string, pdfjsUrl?: string}): Promise<object>,
 *   list(options?: {extensions?: string[]}): {files: string[], errors: {file: string, code: string, message: string}[]},
 *   readManifest(name?: string): {id: string, file: string, title?: string}[]}}
 * @throws {RagwasmError} INVALID_ARGUMENT (not a folder, bad option), NOT_FOUND, UNSUPPORTED_ENVIRONMENT (not Node)
 *
 * Each method throws a RagwasmError whose message starts "ragwasm: FILE:": INVALID_ARGUMENT (a path
 * outside the folder, absolute, through a symbolic link leading outside; not a regular file; a text
 * format expected), NOT_FOUND, LIMIT_EXCEEDED (maxFileBytes, maxFolderBytes, maxFiles), and from
 * readDocument the errors of extractText (PARSE_ERROR, LIMIT_EXCEEDED).
 */
export function openFolder(dir, options = {}) {
  const o = expectOptions(options, 'openFolder options', ['limits']);
  const limits = fileLimits(o.limits);
  expectString(dir, 'dir', { allowEmpty: false, maxLength: 4096 });
  const fs = nodeBuiltin('fs');
  const path = nodeBuiltin('path');
  let root;
  try {
    root = fs.realpathSync(dir);
  } catch (e) {
    throw new RagwasmError('NOT_FOUND', `ragwasm: ${dir}: no such folder (${e.code ?? e.message})`);
  }
  if (!fs.statSync(root).isDirectory()) throw new RagwasmError('INVALID_ARGUMENT', `ragwasm: ${dir}: not a folder`);
  const inside = (p) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
  let used = 0;

  // The real path of `file` (relative to the folder), checked to stay inside it.
  function resolve(file) {
    if (typeof file !== 'string' || file === '' || file.includes('\0') || file.length > 4096) {
      throw invalid('file', 'a non-empty path relative to the folder', file);
    }
    if (path.isAbsolute(file)) throw fileError('INVALID_ARGUMENT', file, 'an absolute path; expected a path inside the folder');
    const joined = path.resolve(root, file);
    if (!inside(joined)) throw fileError('INVALID_ARGUMENT', file, 'outside the folder (a path with ..); refused');
    let real;
    try {
      real = fs.realpathSync(joined);
    } catch (e) {
      throw fileError('NOT_FOUND', file, e.code === 'ENOENT' ? 'no such file' : `cannot resolve (${e.code ?? e.message})`);
    }
    if (!inside(real)) throw fileError('INVALID_ARGUMENT', file, 'a symbolic link leading outside the folder; refused');
    return real;
  }

  function readBytes(file) {
    const real = resolve(file);
    let st;
    try {
      st = fs.statSync(real);
    } catch (e) {
      throw fileError('NOT_FOUND', file, `cannot read (${e.code ?? e.message})`);
    }
    if (!st.isFile()) throw fileError('INVALID_ARGUMENT', file, `${kindOf(st)}, not a regular file; refused`);
    const cap = Math.min(limits.maxFileBytes, limits.maxFolderBytes - used);
    if (st.size > limits.maxFileBytes) throw fileError('LIMIT_EXCEEDED', file, `${st.size} bytes, the limit is ${limits.maxFileBytes} per file (maxFileBytes)`);
    if (st.size > cap) throw fileError('LIMIT_EXCEEDED', file, `${st.size} bytes would pass the folder limit of ${limits.maxFolderBytes} bytes (maxFolderBytes; ${used} read)`);
    // O_NONBLOCK: a file swapped for a FIFO after the check cannot block the open.
    let fd;
    try {
      fd = fs.openSync(real, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0));
    } catch (e) {
      throw fileError('NOT_FOUND', file, `cannot open (${e.code ?? e.message})`);
    }
    try {
      const fst = fs.fstatSync(fd);
      if (!fst.isFile()) throw fileError('INVALID_ARGUMENT', file, `${kindOf(fst)}, not a regular file; refused`);
      const bytes = readAtMost(fs, fd, cap, Math.min(fst.size, cap));
      if (bytes === null) throw fileError('LIMIT_EXCEEDED', file, `more than ${cap} bytes (it grew while read, or its size was not known); the limit is ${limits.maxFileBytes} per file, ${limits.maxFolderBytes} per folder`);
      used += bytes.length;
      return bytes;
    } finally {
      fs.closeSync(fd);
    }
  }

  // A data file (manifest.json, corpus.jsonl, qrels, CISI.ALL) as text: UTF-8 (invalid bytes -> U+FFFD,
  // a BOM dropped) or latin1.
  function readText(file, encoding = 'utf-8') {
    return new TextDecoder(encoding === 'latin1' ? 'latin1' : 'utf-8').decode(readBytes(file));
  }

  // A text document (.txt .md .markdown .html .htm) without waiting: what the synchronous dataset
  // loaders read. Any other extension is refused (a manifest naming a key file does not reach a prompt).
  function readDocumentSync(file, docOptions = {}) {
    const d = expectOptions(docOptions, 'readDocumentSync options', ['id', 'title']);
    const format = formatOfName(String(file));
    if (!TEXT_FORMATS.has(format)) {
      throw fileError('INVALID_ARGUMENT', String(file), format ? `a ${format.toUpperCase()} file: this command reads text documents (.txt .md .markdown .html .htm); ragwasm ask reads ${format.toUpperCase()}`
        : 'unsupported file type (text documents: .txt .md .markdown .html .htm)');
    }
    let text = readText(file);
    if (format === 'html') text = htmlToTextFallback(text);
    const id = d.id === undefined ? file : expectString(d.id, 'options.id', { allowEmpty: false });
    const title = typeof d.title === 'string' ? d.title : documentTitle(text, file);
    return { id, title, text, metadata: { name: file, format } };
  }

  async function readDocument(file, docOptions = {}) {
    const d = expectOptions(docOptions, 'readDocument options', ['id', 'title', 'pdfjsUrl']);
    if (!formatOfName(file)) throw fileError('INVALID_ARGUMENT', String(file), `unsupported file type; supported: ${SUPPORTED_LIST}`);
    const bytes = readBytes(file);
    const r = await extractText({ name: file, data: bytes }, { limits, ...(d.pdfjsUrl === undefined ? {} : { pdfjsUrl: d.pdfjsUrl }) });
    const id = d.id === undefined ? file : expectString(d.id, 'options.id', { allowEmpty: false });
    const title = typeof d.title === 'string' ? d.title : documentTitle(r.text, r.name);
    return { id, title, text: r.text, metadata: { name: r.name, format: r.format } };
  }

  // Every file below the folder, sorted by path ('/' separators), dot files and folders skipped;
  // anything but a regular file (or a link to one inside the folder) is an error entry.
  function list(listOptions = {}) {
    const lo = expectOptions(listOptions, 'list options', ['extensions']);
    const exts = lo.extensions === undefined ? null
      : new Set(expectArray(lo.extensions, 'options.extensions', { maxLength: 1000, item: (v, n) => expectString(v, n, { maxLength: 100 }) }).map((x) => x.toLowerCase()));
    const files = [];
    const errors = [];
    /** @type {[string, number][]} folders to read: [path relative to the root, depth] */
    const stack = [['', 0]];
    while (stack.length > 0) {
      const [rel, depth] = stack.pop();
      let entries;
      try {
        entries = fs.readdirSync(rel === '' ? root : path.join(root, rel), { withFileTypes: true });
      } catch (e) {
        errors.push({ file: rel, code: 'NOT_FOUND', message: `cannot list (${e.code ?? e.message})` });
        continue;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      /** @type {[string, number][]} */
      const dirs = [];
      for (const e of entries) {
        if (e.name.startsWith('.')) continue;
        const p = rel === '' ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) {
          if (depth + 1 > limits.maxDepth) errors.push({ file: p, code: 'LIMIT_EXCEEDED', message: `folders nested deeper than ${limits.maxDepth} (maxDepth); not read` });
          else dirs.push([p, depth + 1]);
          continue;
        }
        if (e.isSymbolicLink()) {
          let st;
          try {
            st = fs.statSync(resolve(p));
          } catch (err) {
            errors.push(fileFailure(p, err instanceof RagwasmError ? err : fileError('NOT_FOUND', p, `a broken symbolic link (${err.code ?? err.message})`)));
            continue;
          }
          if (st.isDirectory()) {
            errors.push({ file: p, code: 'INVALID_ARGUMENT', message: 'a symbolic link to a folder; not followed' });
            continue;
          }
          if (!st.isFile()) {
            errors.push({ file: p, code: 'INVALID_ARGUMENT', message: `a symbolic link to ${kindOf(st)}, not a regular file; refused` });
            continue;
          }
        } else if (!e.isFile()) {
          errors.push({ file: p, code: 'INVALID_ARGUMENT', message: `${e.isFIFO() ? 'a FIFO (named pipe)' : e.isSocket() ? 'a socket' : e.isCharacterDevice() ? 'a character device' : e.isBlockDevice() ? 'a block device' : 'not a regular file'}, not a regular file; refused` });
          continue;
        }
        if (exts !== null) {
          const ext = (/\.([A-Za-z0-9]+)$/.exec(e.name) ?? [])[1]?.toLowerCase();
          if (!ext || !exts.has(ext)) continue;
        }
        if (files.length >= limits.maxFiles) {
          errors.push({ file: p, code: 'LIMIT_EXCEEDED', message: `more than ${limits.maxFiles} files (maxFiles); the rest is not read` });
          return { files, errors };
        }
        files.push(p);
      }
      for (let i = dirs.length - 1; i >= 0; i--) stack.push(dirs[i]);
    }
    return { files, errors };
  }

  return {
    root, limits, resolve, readBytes, readText, readDocumentSync, readDocument, list,
    readManifest(name = 'manifest.json') { return readManifest(readText, name); },
    get bytesRead() { return used; },
  };
}

/**
 * Up to `cap` bytes of an open file descriptor, or null when it holds more. `expected` (its size, when
 * known) sizes the first buffer; reading goes on past it (a file that grows, or a /proc file of size 0)
 * but never past cap + 1 bytes.
 * @internal
 */
export function readAtMost(fs, fd, cap, expected = 0) {
  let buf = new Uint8Array(Math.min(cap + 1, Math.max(expected + 1, 64 * 1024)));
  let len = 0;
  for (;;) {
    if (len === buf.length) {
      if (len > cap) return null;
      const bigger = new Uint8Array(Math.min(cap + 1, buf.length * 2));
      bigger.set(buf);
      buf = bigger;
    }
    const n = fs.readSync(fd, buf, len, buf.length - len, null);
    if (n === 0) break;
    len += n;
  }
  return len > cap ? null : buf.subarray(0, len);
}

/**
 * The documents of a folder, each file a per-file success or failure: a dataset folder with
 * manifest.json ([{id, file, title?}], as examples/corpus; every file must stay inside the folder) or
 * every supported file below it (.txt .md .markdown .html .htm .pdf .docx; id = the relative path).
 *
 * @example
 * const { documents, errors } = await readDocumentFolder('docs', { limits: { maxFileBytes: 8 << 20 } });
 * for (const e of errors) console.warn(`skipped ${e.file} (${e.code}: ${e.message})`);
 *
 * @param {string} dir
 * @param {{manifest?: boolean, limits?: Partial<typeof FILE_LIMITS>, pdfjsUrl?: string}} [options]
 *   manifest default: whether dir/manifest.json exists
 * @returns {Promise<{documents: {id: string, title: string, text: string, metadata: {name: string, format: string}}[],
 *   errors: {file: string, code: string, message: string}[], manifest: boolean}>}
 * @throws {RagwasmError} NOT_FOUND / INVALID_ARGUMENT (dir), PARSE_ERROR (manifest.json is not a JSON array of
 *   {id, file}), LIMIT_EXCEEDED (manifest.json over the limits)
 */
export async function readDocumentFolder(dir, options = {}) {
  const o = expectOptions(options, 'readDocumentFolder options', ['manifest', 'limits', 'pdfjsUrl']);
  if (o.manifest !== undefined) expectBoolean(o.manifest, 'options.manifest');
  if (o.pdfjsUrl !== undefined) expectString(o.pdfjsUrl, 'options.pdfjsUrl', { allowEmpty: false });
  const reader = openFolder(dir, o.limits === undefined ? {} : { limits: o.limits });
  const useManifest = o.manifest === undefined ? nodeBuiltin('fs').existsSync(nodeBuiltin('path').join(reader.root, 'manifest.json')) : o.manifest === true;
  const documents = [];
  const errors = [];
  const docOptions = o.pdfjsUrl === undefined ? {} : { pdfjsUrl: o.pdfjsUrl };
  if (useManifest) {
    for (const m of reader.readManifest()) {
      try {
        documents.push(await reader.readDocument(m.file, { ...docOptions, id: m.id, ...(m.title === undefined ? {} : { title: m.title }) }));
      } catch (e) {
        errors.push(fileFailure(m.file, e));
      }
    }
    return { documents, errors, manifest: true };
  }
  const listed = reader.list();
  errors.push(...listed.errors);
  for (const f of listed.files) {
    try {
      documents.push(await reader.readDocument(f, docOptions));
    } catch (e) {
      errors.push(fileFailure(f, e));
    }
  }
  errors.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { documents, errors, manifest: false };
}

/**
 * A dataset's manifest.json read through a folder reader's readText: [{id, file, title?, ...}] (other
 * fields kept; id as a string).
 * @throws {RagwasmError} PARSE_ERROR naming manifest.json and the entry
 */
function readManifest(readText, name) {
  let manifest;
  try {
    manifest = JSON.parse(readText(name));
  } catch (e) {
    if (e instanceof RagwasmError) throw e;
    throw new RagwasmError('PARSE_ERROR', `ragwasm: ${name}: not JSON (${e.message})`);
  }
  if (!isArray(manifest)) throw new RagwasmError('PARSE_ERROR', `ragwasm: ${name}: expected a JSON array of {id, file, title}`);
  return manifest.map((d, i) => {
    if (!isPlainObject(d) || typeof d.file !== 'string' || d.file === '' || !(typeof d.id === 'string' || typeof d.id === 'number') || String(d.id) === '') {
      throw new RagwasmError('PARSE_ERROR', `ragwasm: ${name}: entry ${i}: expected {id, file, title}`);
    }
    return { ...d, id: String(d.id), title: typeof d.title === 'string' ? d.title : undefined };
  });
}

export { FILE_LIMITS };
