// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) for the JS-side saved formats (collections,
// doc chat's saved index). The C++ formats carry their own checksums.
const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/**
 * CRC-32 of bytes, as an unsigned 32-bit number. crc32(new TextEncoder().encode('123456789')) === 0xcbf43926.
 * @param {Uint8Array} bytes
 * @returns {number}
 */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
