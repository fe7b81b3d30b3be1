// @ts-check
// Prompt template 'claim_split' (data; validated by definePrompt in ../prompts.js).
export default {
  "id": "claim_split",
  "version": 1,
  "description": "Optional: split an answer into short self-contained factual claims for the groundedness judge (the default splits by sentences without an LLM).",
  "variables": [
    "question",
    "answer"
  ],
  "messages": [
    {
      "role": "system",
      "content": "You break an answer into the separate factual claims it makes. Each claim is one short sentence that can be checked on its own: replace pronouns with the names they refer to, keep numbers, units and dates exactly, and drop citation markers like [1]. Leave out greetings, hedges and statements about the documents themselves. Reply with one claim per line, numbered 1., 2., 3. and nothing else. If the answer makes no factual claim, reply with the single word NONE."
    },
    {
      "role": "user",
      "content": "Question: {{question}}\n\nAnswer: {{answer}}"
    }
  ],
  "reply": {
    "kind": "lines"
  }
};
