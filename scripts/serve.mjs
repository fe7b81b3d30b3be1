#!/usr/bin/env node
// Static server for the demos on 127.0.0.1: correct MIME types for .wasm/.mjs, COOP/COEP headers
// (cross-origin isolation, so WASM threads can be used), no directory listings, only the folders
// the pages need, and nothing outside them through a symlink (realpath containment). No request can
// stop the server: a file removed or replaced while it is served is a 404 or its old bytes (#30 S-1/S-2).
// `node scripts/serve.mjs [--port N] [--sources]` (default 8787; 0 picks a free port). The pages load the
// bundles of web/dist/demo/ (scripts/bundle-demos.mjs, rebuilt here when stale); --sources serves them
// with the unbundled web/demo/*.js instead (development: no build step, ~240 module requests per page).
import { createServer } from 'node:http';
import { closeSync, createReadStream, existsSync, fstatSync, openSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { extname, join, normalize, posix, relative, resolve, dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.wasm': 'application/wasm',
  '.md': 'text/markdown; charset=utf-8', '.txt': 'text/plain; charset=utf-8', '.jsonl': 'application/jsonl; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.onnx': 'application/octet-stream',
  '.bin': 'application/octet-stream', '.map': 'application/json',
};
// URL prefixes that are served, mapped to folders of the repository.
const ALLOWED = ['/web/', '/examples/', '/models/build/', '/node_modules/onnxruntime-web/dist/',
  '/node_modules/pdfjs-dist/build/', '/node_modules/pdfjs-dist/web/', '/node_modules/mammoth/mammoth.browser.min.js'];

// Read-only example documents from the shared data folder (../shared), when it exists: only these two
// folders, only regular .md/.txt files inside them (no symlink or '..' escapes), listed at
// /shared-data/index.json ({groups: []} without ../shared). Anything else under /shared-data/ is a 404.
const SHARED = {
  'markdown-docs': { dir: resolve(root, '../shared/data/markdown-docs'), ext: ['.md'] },
  'sec-filings': { dir: resolve(root, '../shared/data/sec-filings/text'), ext: ['.txt'] },
};

function sharedFile(rel) {
  const [group, ...rest] = rel.split('/');
  const g = SHARED[group];
  if (!g || rest.length === 0 || rest.some((p) => p === '' || p === '.' || p === '..' || p.startsWith('.'))) return null;
  if (!g.ext.includes(extname(rel).toLowerCase())) return null;
  try {
    const base = realpathSync(g.dir);
    const file = realpathSync(join(g.dir, ...rest));
    return file.startsWith(base + sep) && statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

function sharedListing() {
  const groups = [];
  for (const [name, g] of Object.entries(SHARED)) {
    if (!existsSync(g.dir)) continue;
    const files = [];
    const walk = (dir, prefix, depth) => {
      for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (e.name.startsWith('.')) continue;
        if (e.isDirectory() && depth < 2) walk(join(dir, e.name), `${prefix}${e.name}/`, depth + 1);
        else if (e.isFile() && g.ext.includes(extname(e.name).toLowerCase()) && !(prefix === '' && /^readme\.md$/i.test(e.name))) {
          files.push({ path: `${name}/${prefix}${e.name}`, bytes: statSync(join(dir, e.name)).size });
        }
      }
    };
    walk(g.dir, '', 0);
    if (files.length) groups.push({ name, files });
  }
  return groups;
}

// `extraAllowed`: more URL prefixes to serve (tests add e.g. '/tests/js/hostile/'; the demo server never does).
// A file with an ETag (size and modification time): `Cache-Control: no-cache` makes the browser ask
// again on every load, and an unchanged file then costs a 304 instead of its bytes.
function sendFile(req, res, headers, file, type) {
  // One open file descriptor for the stat and the bytes: a file replaced or removed in between (a rebuild
  // while serving) is served whole from the inode we opened, or is a 404; never an uncaught ENOENT.
  let fd;
  let st;
  try {
    fd = openSync(file, 'r');
    st = fstatSync(fd);
  } catch {
    if (fd !== undefined) closeSync(fd);
    res.writeHead(404, headers).end('not found');
    return;
  }
  if (!st.isFile()) {
    closeSync(fd);
    res.writeHead(404, headers).end('not found');
    return;
  }
  const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  if (req.headers['if-none-match'] === etag || req.method === 'HEAD') {
    closeSync(fd);
    if (req.method === 'HEAD') res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': st.size, ETag: etag }).end();
    else res.writeHead(304, { ...headers, ETag: etag }).end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': st.size, ETag: etag });
  const stream = createReadStream(null, { fd, autoClose: true, end: Math.max(0, st.size - 1), start: 0 });
  stream.on('error', () => res.destroy());  // a read error ends this response only
  res.on('close', () => stream.destroy());
  if (st.size === 0) { stream.destroy(); res.end(); return; }
  stream.pipe(res);
}

// Inside one of the allowed folders after resolving symlinks: the prefix itself may be a link (the
// worktree's node_modules), a link below it must stay inside what the prefix resolves to.
function contained(root, prefix, file) {
  try {
    const base = realpathSync(join(root, prefix));
    const real = realpathSync(file);
    return real === base || real.startsWith(base.endsWith(sep) ? base : base + sep);
  } catch {
    return false;
  }
}

// A page of web/ with each script URL that names a bundle of web/dist/demo/NAME.js pointed at its source
// web/demo/NAME.js instead (both resolved against the page's URL path `at`).
export function withDemoSources(html, at) {
  return html.replace(/(["'])([^"'\s]*dist\/demo\/([\w-]+)\.js)\1/g, (all, q, url, name) => {
    const page = posix.dirname(at);
    if (posix.resolve(page, url) !== `/web/dist/demo/${name}.js`) return all;
    return `${q}${posix.relative(page, `/web/demo/${name}.js`)}${q}`;
  });
}

// `root`: the folder the URL prefixes map into (default the repository; tests pass a temp folder).
// `demoSources`: serve the pages with the unbundled demo scripts (withDemoSources).
export function startServer({ port = 8787, host = '127.0.0.1', quiet = false, extraAllowed = [], root: base = root, demoSources = false } = {}) {
  const allowed = [...ALLOWED, ...extraAllowed];
  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch {
      // Whatever else fails in one request (a file system race, an unexpected error) ends that request only.
      if (!res.headersSent) res.writeHead(500).end('internal error');
      else res.destroy();
    }
  });
  const handle = (req, res) => {
    const headers = {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    };
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400, headers).end('bad request');
      return;
    }
    if (path === '/' || path === '/index.html') {
      res.writeHead(302, { ...headers, Location: '/web/index.html' }).end();
      return;
    }
    if (path.startsWith('/shared-data/')) {
      if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405, headers).end('read only'); return; }
      const rel = path.slice('/shared-data/'.length);
      if (rel === 'index.json') {
        const groups = sharedListing();  // [] when ../shared is absent (the page then shows no examples)
        const body = JSON.stringify({ groups });
        res.writeHead(200, { ...headers, 'Content-Type': MIME['.json'], 'Content-Length': Buffer.byteLength(body) }).end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      const file = sharedFile(rel);
      if (!file) { res.writeHead(404, headers).end('not found'); return; }
      sendFile(req, res, headers, file, MIME[extname(file)] ?? 'text/plain; charset=utf-8');
      return;
    }
    const clean = normalize(path);
    const prefix = allowed.find((p) => clean.startsWith(p) || clean === p.replace(/\/$/, ''));
    if (prefix === undefined || clean.includes('..')) {
      res.writeHead(404, headers).end('not found');
      return;
    }
    let file = join(base, clean);
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
    } catch { /* missing: the containment check below answers 404 */ }
    if (!contained(base, prefix, file)) {
      res.writeHead(404, headers).end('not found');
      return;
    }
    if (demoSources && extname(file) === '.html') {
      let html;
      try {
        html = withDemoSources(readFileSync(file, 'utf8'), `/${relative(base, file).split(sep).join('/')}`);
      } catch {
        res.writeHead(404, headers).end('not found');
        return;
      }
      res.writeHead(200, { ...headers, 'Content-Type': MIME['.html'], 'Content-Length': Buffer.byteLength(html) }).end(req.method === 'HEAD' ? undefined : html);
      return;
    }
    sendFile(req, res, headers, file, MIME[extname(file)] ?? 'application/octet-stream');
  };
  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const url = `http://${host}:${server.address().port}/`;
      if (!quiet) console.log(`ragwasm demos: ${url}  (Ctrl-C to stop)`);
      resolveStart({ url, server, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const eq = process.argv.find((a) => a.startsWith('--port='));
  const port = eq ? Number(eq.slice(7)) : i >= 0 ? Number(process.argv[i + 1]) : 8787;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: --port expects an integer 0-65535, got ${eq ? eq.slice(7) : process.argv[i + 1]}`);
    process.exit(2);
  }
  const demoSources = process.argv.includes('--sources');
  if (!demoSources) await (await import('./bundle-demos.mjs')).bundleDemos();
  startServer({ port, demoSources }).catch((e) => { console.error(`serve: ${e.message}`); process.exit(1); });
}
