// CRC-32 used by the JS-side saved formats: the standard check value and sensitivity to one bit.
import test from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from '../../../web/src/core/checksum.js';

test('crc32 gives the IEEE check value 0xCBF43926 for "123456789"', () => {
  assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
  assert.equal(crc32(new Uint8Array(0)), 0);
});

test('crc32 changes when any single bit of the input flips', () => {
  const bytes = new TextEncoder().encode('ragwasm saved index payload');
  const base = crc32(bytes);
  for (let i = 0; i < bytes.length * 8; i++) {
    const b = bytes.slice();
    b[i >> 3] ^= 1 << (i & 7);
    assert.notEqual(crc32(b), base, `bit ${i}`);
  }
});

// packSections / unpackSections: the legacy JS framing (the sharded indexes write it; collection
// formats 1 and 2, "RAGWCOL1", are read with it).
import { packSections, unpackSections } from '../../../web/src/core/checksum.js';

const enc = new TextEncoder();
const opts = { count: 3, maxVersion: 1, label: 'test bytes', what: 'a test file' };
const isCode = (code, re) => (e) => e.code === code && e.name === 'RagwasmError' && (re === undefined || re.test(e.message));

test('packSections writes magic version length-prefixed sections and a CRC-32 that unpackSections reads back', () => {
  const sections = [enc.encode('{"a":1}'), new Uint8Array(0), Uint8Array.from([1, 2, 3, 255])];
  const bytes = packSections('TESTMAG1', 1, sections);
  assert.equal(bytes.length, 8 + 4 + (4 + 7) + 4 + (4 + 4) + 4);
  assert.equal(new TextDecoder().decode(bytes.subarray(0, 8)), 'TESTMAG1');
  const view = new DataView(bytes.buffer);
  assert.equal(view.getUint32(8, true), 1);
  assert.equal(view.getUint32(12, true), 7);
  assert.equal(view.getUint32(bytes.length - 4, true), crc32(bytes.subarray(0, bytes.length - 4)));
  const r = unpackSections(bytes, 'TESTMAG1', opts);
  assert.equal(r.version, 1);
  assert.deepEqual(r.sections.map((s) => [...s]), sections.map((s) => [...s]));
  // a view into a larger buffer (byteOffset != 0) reads the same
  const padded = new Uint8Array(bytes.length + 5);
  padded.set(bytes, 3);
  assert.deepEqual(unpackSections(padded.subarray(3, 3 + bytes.length), 'TESTMAG1', opts).sections.map((s) => [...s]), r.sections.map((s) => [...s]));
  assert.throws(() => packSections('SHORT', 1, []), RangeError);
});

test('unpackSections rejects every truncation bad magic trailing bytes flipped bits and other versions', () => {
  const bytes = packSections('TESTMAG1', 2, [enc.encode('header'), enc.encode('bm25'), enc.encode('dense')]);
  const o2 = { ...opts, maxVersion: 2 };
  assert.equal(unpackSections(bytes, 'TESTMAG1', o2).version, 2);
  for (let n = 0; n < bytes.length; n++) assert.throws(() => unpackSections(bytes.subarray(0, n), 'TESTMAG1', o2), isCode('CORRUPT_INDEX'), `truncated to ${n}`);
  assert.throws(() => unpackSections(bytes, 'OTHERMAG', o2), isCode('CORRUPT_INDEX', /^ragwasm: test bytes: not a test file \(bad magic\)$/));
  assert.throws(() => unpackSections([...bytes], 'TESTMAG1', o2), isCode('CORRUPT_INDEX', /bad magic/));
  const longer = new Uint8Array(bytes.length + 2);
  longer.set(bytes.subarray(0, bytes.length - 4));
  new DataView(longer.buffer).setUint32(longer.length - 4, crc32(longer.subarray(0, longer.length - 4)), true);
  assert.throws(() => unpackSections(longer, 'TESTMAG1', o2), isCode('CORRUPT_INDEX', /2 unexpected bytes after the sections/));
  for (let i = 12; i < bytes.length; i++) {  // any flip after the version: a length check or the checksum catches it
    const b = bytes.slice();
    b[i] ^= 0x10;
    assert.throws(() => unpackSections(b, 'TESTMAG1', o2), isCode('CORRUPT_INDEX'), `byte ${i}`);
  }
  assert.throws(() => unpackSections(bytes, 'TESTMAG1', opts), isCode('UNSUPPORTED_VERSION', /^ragwasm: test bytes: format version 2; this build reads version 1$/));
  const v0 = bytes.slice();
  new DataView(v0.buffer).setUint32(8, 0, true);
  assert.throws(() => unpackSections(v0, 'TESTMAG1', o2), isCode('UNSUPPORTED_VERSION', /versions 1 to 2/));
  // a length field pointing past the end (re-sealed so only the bound check can catch it)
  const big = bytes.slice();
  new DataView(big.buffer).setUint32(12, 1000, true);
  new DataView(big.buffer).setUint32(big.length - 4, crc32(big.subarray(0, big.length - 4)), true);
  assert.throws(() => unpackSections(big, 'TESTMAG1', o2), isCode('CORRUPT_INDEX', /section 0 has 1000 bytes, only \d+ left/));
});
