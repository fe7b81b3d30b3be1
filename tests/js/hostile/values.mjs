// The catalogue of hostile argument values. Each entry builds its value inside the worker that uses
// it (cyclic objects, Proxies and throwing getters cannot cross a postMessage), so `make()` is
// called once per call. `full: true` entries run only in `npm run fuzz` (too slow or too big for
// the seeded subset in `npm test`).

/** The error a hostile value throws from its own getters, traps and toPrimitive. */
export class HostileValueError extends Error {
  constructor(what) {
    super(`hostile value threw from ${what}`);
    this.name = 'HostileValueError';
  }
}

function nested(depth, leaf, wrap) {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = wrap(v);
  return v;
}

export const HOSTILE_VALUES = [
  { name: 'null', make: () => null },
  { name: 'undefined', make: () => undefined },
  { name: 'NaN', make: () => NaN },
  { name: 'Infinity', make: () => Infinity },
  { name: '-Infinity', make: () => -Infinity },
  { name: '-0', make: () => -0 },
  { name: '-1', make: () => -1 },
  { name: '1.5', make: () => 1.5 },
  { name: '1e308', make: () => 1e308 },
  { name: '2**53', make: () => 2 ** 53 },
  { name: '2**32-1', make: () => 2 ** 32 - 1 },
  { name: 'BigInt 1n', make: () => 1n },
  { name: 'true', make: () => true },
  { name: 'symbol', make: () => Symbol('hostile') },
  { name: 'function', make: () => function hostile() {} },
  { name: "''", make: () => '' },
  { name: 'lone surrogates', make: () => 'a\uD800b\uDFFFc\uD800' },
  { name: 'NUL and controls', make: () => 'a\u0000b\u0007\u001b[31m' },
  { name: "'__proto__'", make: () => '__proto__' },
  { name: '1 MB string', make: () => 'lorem ipsum '.repeat(87382) },
  { name: '50 MB string', full: true, make: () => 'x'.repeat(50 * 1024 * 1024) },
  { name: '[]', make: () => [] },
  { name: '{}', make: () => ({}) },
  { name: 'array with holes', make: () => [, 'a', , 1] }, // eslint-disable-line no-sparse-arrays
  { name: 'array of one hole', make: () => new Array(1) },
  { name: 'huge sparse array', make: () => { const a = []; a.length = 2 ** 32 - 1; return a; } },
  { name: 'array of NaN', make: () => [NaN, Infinity, -Infinity] },
  { name: 'array of null', make: () => [null, null] },
  { name: 'array of objects', make: () => [{}, { text: 1 }] },
  { name: 'cyclic object', make: () => { const o = { a: 1 }; o.self = o; return o; } },
  { name: 'cyclic array', make: () => { const a = [1]; a.push(a); return a; } },
  { name: '20,000-deep object', make: () => nested(20000, {}, (v) => ({ a: v })) },
  { name: '20,000-deep array', make: () => nested(20000, [], (v) => [v]) },
  { name: 'throwing getter', make: () => Object.defineProperty({}, 'text', { enumerable: true, get() { throw new HostileValueError('a getter'); } }) },
  { name: 'throwing length', make: () => { const a = ['a']; return new Proxy(a, { get(t, k) { if (k === 'length') throw new HostileValueError('length'); return t[k]; } }); } },
  { name: 'Proxy of {}', make: () => new Proxy({}, {}) },
  { name: 'Proxy with throwing traps', make: () => new Proxy({}, { get() { throw new HostileValueError('get trap'); }, ownKeys() { throw new HostileValueError('ownKeys trap'); }, getPrototypeOf() { throw new HostileValueError('getPrototypeOf trap'); }, has() { throw new HostileValueError('has trap'); } }) },
  { name: 'revoked Proxy', make: () => { const r = Proxy.revocable([], {}); r.revoke(); return r.proxy; } },
  { name: 'throwing toPrimitive', make: () => ({ [Symbol.toPrimitive]() { throw new HostileValueError('Symbol.toPrimitive'); }, toString() { throw new HostileValueError('toString'); }, valueOf() { throw new HostileValueError('valueOf'); } }) },
  { name: 'throwing Symbol.toStringTag', make: () => Object.defineProperty({}, Symbol.toStringTag, { get() { throw new HostileValueError('Symbol.toStringTag'); } }) },
  { name: 'Object.create(null)', make: () => Object.create(null) },
  { name: 'Date', make: () => new Date(NaN) },
  { name: 'Int32Array', make: () => new Int32Array([1, 2, 3]) },
  { name: 'Float64Array of NaN', make: () => new Float64Array([NaN, 1, 2, 3]) },
  { name: 'Uint8Array invalid UTF-8', make: () => new Uint8Array([0xff, 0xfe, 0xc0, 0x80]) },
  { name: 'ArrayBuffer', make: () => new ArrayBuffer(8) },
  { name: 'Promise', make: () => Promise.resolve(1) },
];
