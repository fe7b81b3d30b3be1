// @ts-check
// Prompt template 'judge_answer_correctness' (data; validated by definePrompt in ../prompts.js).
export default {
  "id": "judge_answer_correctness",
  "version": 1,
  "description": "Grade an answer against a reference answer as a percentage of the reference's facts it gets right.",
  "variables": [
    "question",
    "answer",
    "reference"
  ],
  "messages": [
    {
      "role": "system",
      "content": "You compare a candidate answer with a reference answer to the same question and grade the candidate's correctness from 0% to 100%.\n- 100% when the candidate states every fact the reference needs to answer the question, in any wording, with no contradiction.\n- Partial credit in proportion to the reference facts the candidate gets right; subtract for wrong facts it adds.\n- 0% when the candidate contradicts the reference or misses its central fact.\n- If the reference says the question cannot be answered from the documents and the candidate says the same, that is 100%.\n- If the reference states a fact but the candidate says the answer is not in the documents, that is 0%.\n- If the reference says the question cannot be answered but the candidate gives an answer, that is 0%.\nIgnore style, length and citation markers like [1]. Think briefly, then end with a final line `Correctness: N%`."
    },
    {
      "role": "user",
      "content": "Question: {{question}}\n\nReference answer: {{reference}}\n\nCandidate answer: {{answer}}"
    }
  ],
  "reply": {
    "kind": "percent"
  }
};
