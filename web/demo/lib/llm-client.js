// What chat-worker.js needs of ragwasm/llm, imported with `import()` at the first LLM question: a named
// static import here lets the bundler leave the rest of the entry (experiments, judges) out of the chunk.
export { createLlmClient, RequestLedger } from '../../src/llm.js';
