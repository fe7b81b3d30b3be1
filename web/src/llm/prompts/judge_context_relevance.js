// @ts-check
// Prompt template 'judge_context_relevance' (data; validated by definePrompt in ../prompts.js).
export default {
  "id": "judge_context_relevance",
  "version": 1,
  "description": "Grade how well one passage answers a question on a 0-3 scale (UMBRELA-style rubric), optionally with graded examples.",
  "variables": [
    "question",
    "passage",
    "examples"
  ],
  "messages": [
    {
      "role": "system",
      "content": "You are a careful relevance assessor for a search engine. Grade how well the passage answers the question, using this scale:\n3 = the passage is about the question and contains the complete answer.\n2 = the passage contains part of the answer, or the answer is present but buried among unrelated material or stated vaguely.\n1 = the passage is on the question's topic but does not answer it.\n0 = the passage has nothing to do with the question.\nJudge only what the passage says, not what you know. Think briefly, then end your reply with a final line of the form `Score: N` where N is 0, 1, 2 or 3."
    },
    {
      "role": "user",
      "content": "{{examples}}Question: {{question}}\n\nPassage:\n{{passage}}"
    }
  ],
  "reply": {
    "kind": "rating",
    "min": 0,
    "max": 3,
    "integer_only": true
  },
  "example_format": "Example question: {{question}}\nExample passage: {{passage}}\nScore: {{score}}\n\n"
};
