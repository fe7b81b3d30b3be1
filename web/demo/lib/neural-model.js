// Doc chat's "use a neural model" control (issue #27): a model of models/manifest.json by name, downloaded by
// the library from the model hub (createOnnxEmbedder(NAME) in the worker, cached in this browser) and
// used as the dense leg. The download size shown is the manifest's pinned sizes (modelDownloadBytes);
// the hub is Hugging Face unless the page address has ?hub=URL (a local hub for tests).
import { MODEL_MANIFEST, modelDownloadBytes } from '../../src/onnx.js';
import { h, setChildren } from './dom.js';

/** The button text of a model: "use a neural model (downloads N MB)", N from the manifest's pinned sizes. */
export function neuralModelLabel(name, manifest = MODEL_MANIFEST) {
  const bytes = modelDownloadBytes(manifest.models[name]);
  return bytes === null ? 'use a neural model (download size not pinned in models/manifest.json)'
    : `use a neural model (downloads ${(bytes / 1e6).toFixed(bytes < 10e6 ? 1 : 0)} MB)`;
}

/**
 * Renders the control into `root`. `load(name, hubUrl)` runs the worker request and resolves when the
 * model is the dense leg; errors are the caller's to show.
 */
export function mountNeuralModel(root, { load, manifest = MODEL_MANIFEST, hubUrl = new URL(location.href).searchParams.get('hub') ?? undefined }) {
  const names = Object.keys(manifest.models).filter((n) => Object.keys(manifest.models[n].files ?? {}).length > 0);
  const select = h('select', { id: 'neural-name', 'aria-label': 'neural model' }, ...names.map((n) => h('option', { value: n }, n)));
  const button = h('button', { type: 'button', id: 'use-neural' }, neuralModelLabel(names[0], manifest));
  select.addEventListener('change', () => { button.textContent = neuralModelLabel(select.value, manifest); });
  button.addEventListener('click', () => load(select.value, hubUrl));
  setChildren(root, h('label', { class: 'field', for: 'neural-name' }, 'model from the hub', select), button);
}
