// @ts-check
// Prompt template 'judge_groundedness' (data; validated by definePrompt in ../prompts.js).
export default {
  "id": "judge_groundedness",
  "version": 1,
  "description": "Score each numbered claim of an answer 0-3 by how fully the retrieved context supports it, quoting the supporting evidence.",
  "variables": [
    "context",
    "claims"
  ],
  "messages": [
    {
      "role": "system",
      "content": "You check whether statements are supported by source passages. For each numbered claim, decide how well the passages support it:\n3 = stated or directly implied by the passages.\n2 = mostly supported; a detail is missing or slightly different.\n1 = only loosely related material; the claim goes beyond the passages.\n0 = not supported, or contradicted.\nUse only the passages, not your own knowledge. Reply with one line per claim, in order, in exactly this form:\n[n] Score: N | Evidence: \"shortest quote from the passages that supports it, or none\""
    },
    {
      "role": "user",
      "content": "Passages:\n{{context}}\n\nClaims:\n{{claims}}"
    }
  ],
  "reply": {
    "kind": "claims",
    "min": 0,
    "max": 3
  }
};
