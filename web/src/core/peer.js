// @ts-check
// Optional peer dependencies (onnxruntime-web, pdfjs-dist, mammoth) are imported by their bare names
// at the point of use, so apps that never call into them never bundle them. When one is missing the
// import fails with a resolver error; this turns it into a RagwasmError saying what to install.
import { RagwasmError } from './errors.js';

/**
 * Runs `load()` (a literal dynamic import of the package name, kept at the call site so bundlers see it) and maps a
 * failure to NOT_FOUND naming the package and the entry that needs it.
 * @internal
 */
export async function importPeer(load, pkg, entry) {
  // entry: who needs it, e.g. 'ragwasm/onnx'
  try {
    return await load();
  } catch (e) {
    throw new RagwasmError('NOT_FOUND', `ragwasm: ${entry}: could not import the optional peer dependency '${pkg}' ` +
      `(${e && e.message ? e.message : e}); install it beside ragwasm: npm install ${pkg}` +
      ' (in a page without a bundler, map it in an import map; see docs/install.md)', { cause: e });
  }
}
