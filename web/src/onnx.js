// @ts-check
// ragwasm/onnx: transformer models through ONNX Runtime Web: the ONNX embedder (by name from a model hub,
// or from bytes/URLs) and the cross-encoder reranker. `onnxruntime-web` is an optional peer dependency, imported by its bare name only when a
// model is created (or pass your own module as options.ort), so apps that never import this entry
// never bundle it.
export { OnnxEmbedder, createOnnxEmbedder } from './embed/onnx-embedder.js';
export { fetchModelFiles, modelDownloadBytes, DEFAULT_HUB_URL } from './embed/model-hub.js';
export { MODEL_MANIFEST } from './embed/model-manifest.js';
export { CrossEncoderReranker, createCrossEncoderReranker } from './retrieve/cross-encoder.js';
