// Type declarations of the ragwasm/onnx entry.
export * from './embed/onnx-embedder.js';
export * from './retrieve/cross-encoder.js';
