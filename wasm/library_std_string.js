// Emscripten JS library (--js-library, cmake/wasm.cmake): Embind's std::string wire type copies a typed
// array into the heap with one HEAPU8.set instead of a JS loop over its bytes (Emscripten 3.1.6 writes
// `HEAPU8[ptr + 4 + i] = value[i]` per byte: 120-260 CPU-ms per Worker in a parallel build). Every `Bytes`
// parameter of wasm/bind_*.cpp crosses here; docs/performance.md has the measurements.
//
// How: user --js-library files are processed after the system ones (embind/embind.js) and may replace
// their symbols (src/modules.js). The replacement is the installed function's own source with that one
// loop swapped, so the string paths, the UTF-8 flag, the type check and its error stay Emscripten's.
// TypedArray.prototype.set converts elements as the loop's assignments did (Int8Array -1 -> 255;
// ArrayBuffer was already wrapped in a Uint8Array above it). If the loop is not found: an Emscripten
// that already copies with HEAPU8.set is left as it is; anything else fails the link, so an upgrade
// never drops the fix silently.
(function patchStdStringCopy() {
  const name = '_embind_register_std_string';
  const original = LibraryManager.library[name];
  if (typeof original != 'function') {
    throw new Error(`wasm/library_std_string.js: ${name} not found (link with --bind before --js-library)`);
  }
  const source = original.toString();
  const byteLoop = /for \(var i = 0; i < length; \+\+i\) \{\s*HEAPU8\[ptr \+ 4 \+ i\] = value\[i\];\s*\}/g;
  const found = source.match(byteLoop) || [];
  if (found.length == 0 && /HEAPU8\.set\(value/.test(source)) return;
  if (found.length != 1) {
    throw new Error(`wasm/library_std_string.js: expected one byte-copy loop in ${name}, found ${found.length}; ` +
                    'check this Emscripten\'s src/embind/embind.js and update the pattern');
  }
  const patched = source.replace(byteLoop, 'HEAPU8.set(value, ptr + 4);');
  const lib = {};
  lib[name] = new Function(`return (${patched});`)();
  mergeInto(LibraryManager.library, lib);
})();
