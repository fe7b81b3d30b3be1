// CRC-32 used by the JS-side saved formats: the standard check value and sensitivity to one bit.
import test from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from '../../web/src/checksum.js';

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
