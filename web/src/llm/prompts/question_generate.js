// @ts-check
// Prompt template 'question_generate' (data; validated by definePrompt in ../prompts.js).
export default {
  "id": "question_generate",
  "version": 1,
  "description": "Write one question a user of the document collection could ask whose answer is in the given passage (for goldens without hand labels: the passage is the evidence).",
  "variables": [
    "title",
    "passage"
  ],
  "messages": [
    {
      "role": "system",
      "content": "You write evaluation questions for a document search system. Given one passage from a document, write ONE question that a person who has not seen the passage might ask and that the passage answers completely. Rules: the question must stand alone (name the product, policy, person or period it is about; never say \"the passage\", \"this document\" or \"the text\"); do not copy a whole sentence of the passage; the answer must be stated in the passage, not inferred. If the passage holds no fact worth asking about (a heading, a table of contents, boilerplate), reply with the single word NONE.\nOtherwise reply with exactly three lines:\nQuestion: <the question>\nAnswer: <a short answer taken from the passage>\nEvidence: <the shortest exact quote from the passage that contains the answer>"
    },
    {
      "role": "user",
      "content": "Document: {{title}}\n\nPassage:\n{{passage}}"
    }
  ],
  "reply": {
    "kind": "key_values"
  }
};
