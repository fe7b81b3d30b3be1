// The MiniLM-L6-shaped BERT with seeded random weights that the `onnx` and `coldstart` benches run:
// 6 layers, hidden 384, 12 heads, intermediate 1536, the real 30,522-word bert-base-uncased vocabulary,
// written by models/make-bert-fixture.py into models/build/ (gitignored; never committed) on first use,
// with onnx/model.onnx (float32) and onnx/model_quantized.onnx (dynamic int8 MatMuls).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MINILM_NAME = 'minilm-l6-random';
export const MINILM_ARGS = ['--name', MINILM_NAME, '--layers', '6', '--hidden', '384', '--heads', '12', '--intermediate', '1536',
  '--init', 'fan-in', '--model-max-length', '256', '--seed', '1234', '--quantize'];

/**
 * Generates the model unless models/build/<name>/ already holds one made with the same arguments.
 * Returns {root, name, dir, fp32, int8, tokenizerJson} or {skip: reason}.
 */
export function ensureMinilmModel(repoRoot, tokenizerJson) {
  const root = join(repoRoot, 'models', 'build');
  const dir = join(root, MINILM_NAME);
  const stamp = join(dir, 'generated-with.json');
  const want = JSON.stringify({ args: MINILM_ARGS, tokenizerJson });
  const fp32 = join(dir, 'onnx', 'model.onnx');
  const int8 = join(dir, 'onnx', 'model_quantized.onnx');
  const fresh = existsSync(stamp) && readFileSync(stamp, 'utf8') === want && existsSync(fp32) && existsSync(int8);
  if (!fresh) {
    try {
      execFileSync('/usr/bin/python3', ['-c', 'import onnx, numpy'], { stdio: 'ignore' });
    } catch {
      return { skip: 'needs Debian python3-onnx and python3-numpy (bash scripts/bootstrap)' };
    }
    execFileSync('/usr/bin/python3', [join(repoRoot, 'models', 'make-bert-fixture.py'), root, tokenizerJson, ...MINILM_ARGS], { stdio: 'ignore' });
    writeFileSync(stamp, want);
  }
  return { root, name: MINILM_NAME, dir, fp32, int8, tokenizerJson };
}
