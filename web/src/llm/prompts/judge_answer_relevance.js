// @ts-check
// Prompt template 'judge_answer_relevance' (data; validated by definePrompt in ../prompts.js).
export default {
  "id": "judge_answer_relevance",
  "version": 1,
  "description": "Grade how directly an answer addresses the question (not whether it is true), 0-3.",
  "variables": [
    "question",
    "answer"
  ],
  "messages": [
    {
      "role": "system",
      "content": "You grade whether an answer responds to the question that was asked. Do not judge whether it is true. Scale:\n3 = answers exactly what was asked, completely and without padding.\n2 = answers the question but is incomplete or carries unrelated material.\n1 = touches the topic but does not answer what was asked.\n0 = unrelated, empty, or a refusal.\nAn answer saying the documents do not contain the answer gets 1 unless the question asked whether the documents contain it. Think briefly, then end with a final line `Score: N`."
    },
    {
      "role": "user",
      "content": "Question: {{question}}\n\nAnswer: {{answer}}"
    }
  ],
  "reply": {
    "kind": "rating",
    "min": 0,
    "max": 3,
    "integer_only": true
  }
};
