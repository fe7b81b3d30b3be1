// Issue #18: every `Bytes` (std::string) parameter crosses through Embind's std::string wire type, whose
// typed-array copy wasm/library_std_string.js replaces with one HEAPU8.set. Pins what one binding
// (text_repairUtf8: UTF-8 in, the same text back as a JS string, U+FFFD for each invalid byte) receives
// for each kind of value Embind accepts, and the error for the kinds it refuses, in both builds.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../../web/src/index.js';
import { wasm } from '../../../web/src/core/module.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, repoRoot } from '../helpers.mjs';

// 'A', NUL, é (C3 A9), 中 (E4 B8 AD), 😀 (F0 9F 98 80), a lone 0xFF, 'z', NUL at the end
const SAMPLE = Uint8Array.from([0x41, 0x00, 0xc3, 0xa9, 0xe4, 0xb8, 0xad, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0x7a, 0x00]);
const SAMPLE_TEXT = 'A\0é中😀\uFFFDz\0';

function repaired(value) {
  const r = wasm().text_repairUtf8(value);
  assert.equal(r.ok, true, `text_repairUtf8 failed: ${r.code} ${r.message}`);
  return r.value;
}

// Valid UTF-8 of every byte length, NULs included, 64 KiB and more: seeded, so a failure names its seed.
function mixedText(seed, chars) {
  const pieces = ['\0', 'a', 'Z', '~', 'é', 'ß', 'Ω', '中', '€', '😀', '𝄞', '\u0080', '\u07ff', '\uffff'];
  let s = seed >>> 0;
  let out = '';
  for (let i = 0; i < chars; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out += pieces[s % pieces.length];
  }
  return out;
}

test('a Uint8Array with NUL bytes and bytes >= 0x80 reaches C++ byte for byte', async () => {
  await init();
  assert.equal(repaired(SAMPLE), SAMPLE_TEXT);
  const text = mixedText(18, 40_000);
  const bytes = new TextEncoder().encode(text);
  assert.ok(bytes.length > 65_536 && bytes.includes(0) && bytes.some((b) => b >= 0x80));
  assert.equal(repaired(bytes), text, 'seed 18');
  assert.equal(repaired(new Uint8Array(0)), '');
});

test('a view with a byteOffset into a larger buffer passes only its own bytes', async () => {
  await init();
  const backing = new Uint8Array(SAMPLE.length + 8).fill(0x21);  // '!' around the view
  backing.set(SAMPLE, 5);
  assert.equal(repaired(backing.subarray(5, 5 + SAMPLE.length)), SAMPLE_TEXT);
});

test('ArrayBuffer Uint8ClampedArray and Int8Array give the same bytes as the Uint8Array', async () => {
  await init();
  assert.equal(repaired(SAMPLE.slice().buffer), SAMPLE_TEXT);
  assert.equal(repaired(new Uint8ClampedArray(SAMPLE)), SAMPLE_TEXT);
  // Int8Array holds 0xC3 as -61: the copy must store it as the byte 0xC3 again
  const signed = new Int8Array(SAMPLE.slice().buffer);
  assert.equal(signed[2], -61);
  assert.equal(repaired(signed), SAMPLE_TEXT);
});

test('a JS string is still encoded as UTF-8 by Embind', async () => {
  await init();
  assert.equal(repaired('A\0é中😀z'), 'A\0é中😀z');
  assert.equal(repaired(''), '');
});

test('values Embind refuses for a std::string still throw its BindingError', async () => {
  await init();
  const refused = [42, null, undefined, {}, [0x41], new Uint16Array([0x41]), new Float32Array(1), new DataView(new ArrayBuffer(1))];
  for (const v of refused) {
    assert.throws(() => wasm().text_repairUtf8(v), (e) => e.name === 'BindingError' && /Cannot pass non-string to std::string/.test(e.message),
      `value ${Object.prototype.toString.call(v)}`);
  }
  assert.equal(repaired(SAMPLE), SAMPLE_TEXT, 'still works after the errors');
});

test('the built glue copies typed arrays with HEAPU8.set, not a loop per byte', () => {
  const dir = build === 'debug' ? 'web/dist/debug' : 'web/dist';
  const glue = readFileSync(join(repoRoot, dir, 'ragwasm.mjs'), 'utf8');
  const start = glue.indexOf('function __embind_register_std_string(');
  assert.ok(start >= 0, `${dir}/ragwasm.mjs has no __embind_register_std_string`);
  const body = glue.slice(start, glue.indexOf('function __embind_register_std_wstring(', start));
  assert.match(body, /HEAPU8\.set\(value,\s*ptr\s*\+\s*4/);
  assert.doesNotMatch(body, /HEAPU8\[ptr\s*\+\s*4\s*\+\s*i(\s*>>>\s*0)?\]\s*=\s*value\[i\]/);
});
