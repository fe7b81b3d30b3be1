// The tiny cross-encoder fixture (models/make-bert-fixture.py, python3-onnx) shared by the tests that
// need it: each test makes it itself when it is missing (no test depends on another file's side effects),
// or skips by name without ../shared's tokenizer or python3-onnx.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, skipUnlessShared } from './helpers.mjs';
import { pythonOnnx } from './embed-fixtures.mjs';

const PY = '/usr/bin/python3';

// Generated once into models/build/fixtures/cross-encoder/ (not committed), like the browser tests'
// tiny-bert: written to a temporary sibling folder first, then renamed into place.
export const FIXTURE_DIR = join(repoRoot, 'models/build/fixtures/cross-encoder');

/** {dir, tok, model (file URL of tiny-ce/onnx/model.onnx)}, or null after t.skip(reason). */
export function crossEncoderFixture(t) {
  const tok = skipUnlessShared(t, 'models/bert-base-uncased/tokenizer.json');
  if (!tok) return null;
  if (!existsSync(join(FIXTURE_DIR, 'two-logits.onnx'))) {
    if (!pythonOnnx()) {
      t.skip('needs Debian python3-onnx and python3-numpy for /usr/bin/python3 (apt-get install python3-onnx)');
      return null;
    }
    mkdirSync(dirname(FIXTURE_DIR), { recursive: true });
    const tmp = mkdtempSync(`${FIXTURE_DIR}.tmp-`);
    execFileSync(PY, [join(repoRoot, 'models/make-bert-fixture.py'), tmp, tok, '--name', 'tiny-ce', '--seed', '4321', '--head', 'classifier']);
    try {
      renameSync(tmp, FIXTURE_DIR);
    } catch (e) {
      rmSync(tmp, { recursive: true, force: true });  // another run put it in place first
      if (!existsSync(join(FIXTURE_DIR, 'two-logits.onnx'))) throw e;
    }
  }
  return { dir: FIXTURE_DIR, tok, model: pathToFileURL(join(FIXTURE_DIR, 'tiny-ce/onnx/model.onnx')) };
}
