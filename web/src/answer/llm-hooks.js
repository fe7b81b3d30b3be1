// The LLM steps ask() can use (grounded answer, follow-up rewrite, query clarification), registered by the `ragwasm/llm`
// entry when it loads, so the core entry never reaches the LLM client code: a caller that holds an
// LlmClient has loaded the ragwasm/llm entry, and with it these hooks.
let hooks = null;

/** @internal Called once by web/src/llm.js. */
export function setLlmAnswerHooks(value) {
  hooks = value;
}

/** @internal The registered hooks ({generateAnswer, rewriteQuery, clarifyQuestion}) or null. */
export function llmAnswerHooks() {
  return hooks;
}
