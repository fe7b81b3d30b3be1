// The foundation's contract: init() guard, the error contract across the WASM boundary, UTF-16
// offsets, handles (dispose + FinalizationRegistry) and 10,000 seeded malformed calls.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ragwasm from '../../../web/src/index.js';
import { wasm } from '../../../web/src/core/module.js';
import { build, repoRoot } from '../helpers.mjs';

const { init, RagwasmError, SentenceSplitter, splitSentences, foldText, decodeUtf8, findInvalidUtf8, createDocument, info } = ragwasm;

test('calls before init() throw NOT_INITIALIZED instead of crashing', () => {
  assert.throws(() => splitSentences('a. b.'), (e) => e instanceof RagwasmError && e.code === 'NOT_INITIALIZED' && /init\(\)/.test(e.message));
});

test('init() loads the chosen build once and reports the package version', async () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const a = await init();
  const b = await init();
  assert.deepEqual(a, b);
  assert.equal(a.version, pkg.version);
  assert.equal(a.build, build);
  assert.equal(info().version, pkg.version);
  const other = build === 'debug' ? 'release' : 'debug';
  await assert.rejects(init({ build: other }), (e) => e.code === 'INVALID_ARGUMENT' && e.message.includes('already loaded'));
  await assert.rejects(init({ bogus: 1 }), (e) => e.code === 'INVALID_ARGUMENT' && e.message.includes("unknown option 'bogus'"));
});

test('sentence offsets are UTF-16 units of the caller string, astral characters and lone surrogates included', async () => {
  await init();
  const text = 'Dr. Who came \u{1F600}. He left \uD800 today! \u4ECA\u5929\u3002Fin.';
  const s = splitSentences(text);
  assert.deepEqual(s.map((x) => x.text), ['Dr. Who came \u{1F600}.', 'He left \uD800 today!', '\u4ECA\u5929\u3002', 'Fin.']);
  for (const x of s) assert.equal(text.slice(x.start, x.end), x.text);
  assert.equal(s[1].start, 17);  // 'Dr. Who came ' (13) + 2 units for the emoji + '. ' (2)
});

test('errors name the parameter and say what was expected and what came', async () => {
  await init();
  const cases = [
    [() => splitSentences(42), 'INVALID_ARGUMENT', /text: expected a string, got 42/],
    [() => splitSentences('x', { abbreviations: 'e.g' }), 'INVALID_ARGUMENT', /options.abbreviations: expected an array/],
    [() => splitSentences('x', { newLineBreaks: true }), 'INVALID_ARGUMENT', /unknown option 'newLineBreaks'/],
    [() => SentenceSplitter.create({ abbreviations: ['two words'] }), 'INVALID_ARGUMENT', /abbreviations\[0\]/],
    [() => foldText('x', { accents: 'yes' }), 'INVALID_ARGUMENT', /options.accents: expected true or false/],
    [() => decodeUtf8(new Uint8Array([0x61, 0xff]), { fatal: true }), 'INVALID_UTF8', /byte offset 1/],
    [() => findInvalidUtf8('text'), 'INVALID_ARGUMENT', /bytes: expected a Uint8Array/],
    [() => createDocument({ id: '', text: 'x' }), 'INVALID_ARGUMENT', /document.id: expected a non-empty string/],
    [() => createDocument({ id: 'a', text: 'x', metadata: { n: NaN } }), 'INVALID_ARGUMENT', /document.metadata.n/],
  ];
  for (const [fn, code, re] of cases) {
    assert.throws(fn, (e) => {
      assert.ok(e instanceof RagwasmError, `not a RagwasmError: ${e}`);
      assert.ok(e instanceof Error);
      assert.equal(e.code, code);
      assert.match(e.message, /^ragwasm: /);
      assert.match(e.message, re);
      return true;
    });
  }
  // After the errors the API still works.
  assert.equal(splitSentences('One. Two.').length, 2);
});

test('UTF-8 repair matches TextDecoder on seeded random bytes', async () => {
  await init();
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const td = new TextDecoder();
  for (let i = 0; i < 500; i++) {
    const bytes = new Uint8Array(Math.floor(rnd() * 40));
    for (let j = 0; j < bytes.length; j++) bytes[j] = rnd() < 0.5 ? 0x61 + Math.floor(rnd() * 26) : Math.floor(rnd() * 256);
    assert.equal(decodeUtf8(bytes), td.decode(bytes), `seed 42 case ${i}`);
    let valid = true;
    try { new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch { valid = false; }
    assert.equal(findInvalidUtf8(bytes) === -1, valid, `seed 42 case ${i}`);
  }
});

test('heap exhaustion in C++ becomes OUT_OF_MEMORY and the module keeps working', async () => {
  await init();
  const m = wasm();
  const r = m.debug_allocate(4000);  // more than MAXIMUM_MEMORY (4 GB) can still give: bad_alloc
  assert.equal(r.ok, false);
  assert.equal(r.code, 'OUT_OF_MEMORY');
  assert.equal(m.debug_allocate(1).ok, true);
  assert.equal(splitSentences('Still. Works.').length, 2);
});

test('a disposed handle throws DISPOSED and dispose() is idempotent', async () => {
  await init();
  const s = SentenceSplitter.create();
  assert.equal(s.split('One. Two.').length, 2);
  s.dispose();
  s.dispose();
  assert.equal(s.disposed, true);
  assert.throws(() => s.split('A.'), (e) => e.code === 'DISPOSED');
});

test('10,000 create/dispose cycles do not grow the WASM heap', async () => {
  await init();
  const m = wasm();
  const warm = SentenceSplitter.create({ abbreviations: ['approx', 'dept'] });
  warm.split('Warm up. Twice.');
  warm.dispose();
  const before = m.heap_stats().value;
  for (let i = 0; i < 10000; i++) {
    const s = SentenceSplitter.create({ abbreviations: ['approx', 'dept'] });
    if (i % 1000 === 0) s.split('Approx. Ten. Done.');
    s.dispose();
  }
  const after = m.heap_stats().value;
  assert.equal(after.heapBytes, before.heapBytes, 'heap grew');
  assert.ok(after.allocatedBytes - before.allocatedBytes <= 1024, `allocated grew by ${after.allocatedBytes - before.allocatedBytes} bytes`);
});

test('forgotten handles are freed by the FinalizationRegistry safety net', async () => {
  await init();
  const script = `
    import { init, SentenceSplitter } from ${JSON.stringify(join(repoRoot, 'web/src/index.js'))};
    import { wasm } from ${JSON.stringify(join(repoRoot, 'web/src/core/module.js'))};
    await init();
    const m = wasm();
    const base = m.heap_stats().value.allocatedBytes;
    (() => { for (let i = 0; i < 2000; i++) SentenceSplitter.create({ abbreviations: ['x'.repeat(60)] }); })();
    const leaked = m.heap_stats().value.allocatedBytes - base;
    for (let i = 0; i < 20 && m.heap_stats().value.allocatedBytes - base > 4096; i++) {
      globalThis.gc();
      await new Promise((r) => setTimeout(r, 20));
    }
    console.log(JSON.stringify({ leaked, after: m.heap_stats().value.allocatedBytes - base }));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', env: process.env });
  assert.equal(r.status, 0, r.stderr);
  const { leaked, after } = JSON.parse(r.stdout.trim().split('\n').pop());
  assert.ok(leaked > 2000 * 60, `expected live handles to hold memory first, got ${leaked}`);
  assert.ok(after <= 4096, `after GC ${after} bytes still allocated`);
});

// ---- 10,000 seeded malformed calls -------------------------------------------------------------
function makeRandom(seed) {
  let s = seed >>> 0;
  const next = () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 2 ** 32;
  };
  const strings = ['', ' ', 'Dr. A. B.', '\uD800', '\uDC00x', 'a\uD83D', '\u{1F600}'.repeat(5), 'x'.repeat(70), '\0\0', 'Ünïcødé. Next.'];
  const value = (depth = 0) => {
    const r = next();
    if (r < 0.12) return strings[Math.floor(next() * strings.length)];
    if (r < 0.16) return 'w. '.repeat(Math.floor(next() * 20000));  // large
    if (r < 0.22) return [NaN, -1, 0, 1.5, Infinity, -Infinity, 2 ** 53, -0][Math.floor(next() * 8)];
    if (r < 0.26) return [null, undefined, true, false][Math.floor(next() * 4)];
    if (r < 0.29) return Symbol('s');
    if (r < 0.32) return 10n;
    if (r < 0.40) return new Uint8Array(Array.from({ length: Math.floor(next() * 30) }, () => Math.floor(next() * 256)));
    if (r < 0.43) return new ArrayBuffer(Math.floor(next() * 8));
    if (r < 0.46) return new Float32Array(3);
    if (r < 0.60 && depth < 2) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
    if (r < 0.80 && depth < 2) {
      const keys = ['abbreviations', 'newlineBreaks', 'lowercase', 'accents', 'fatal', 'id', 'text', 'metadata', 'bogus'];
      const o = {};
      for (let i = Math.floor(next() * 3); i > 0; i--) o[keys[Math.floor(next() * keys.length)]] = value(depth + 1);
      return o;
    }
    return () => 0;
  };
  return { next, value };
}

test('10,000 seeded malformed calls yield a RagwasmError or a valid result, never a crash', async () => {
  await init();
  const seed = 20261121;
  const { next, value } = makeRandom(seed);
  const calls = [
    (a, b) => splitSentences(a, b),
    (a) => SentenceSplitter.create(a).dispose(),
    (a, b) => foldText(a, b),
    (a, b) => decodeUtf8(a, b),
    (a) => findInvalidUtf8(a),
    (a) => createDocument(a),
  ];
  let errors = 0;
  let results = 0;
  const n = 10000;
  for (let i = 0; i < n; i++) {
    const which = Math.floor(next() * calls.length);
    const a = value();
    const b = next() < 0.5 ? undefined : value();
    try {
      const r = calls[which](a, b);
      if (which === 0) {
        assert.ok(Array.isArray(r));
        for (const s of r) assert.equal(a.slice(s.start, s.end), s.text);
      }
      results++;
    } catch (e) {
      if (!(e instanceof RagwasmError)) assert.fail(`seed ${seed} call ${i} (fn ${which}): non-RagwasmError ${e && e.stack}`);
      assert.ok(typeof e.code === 'string' && e.code.length > 0);
      errors++;
    }
  }
  assert.equal(errors + results, n);
  assert.ok(errors > 1000 && results > 300, `both outcomes should be exercised: ${errors} errors, ${results} results`);
  assert.equal(splitSentences('Module intact. Yes.').length, 2);
});
