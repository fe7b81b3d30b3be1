// @ts-check
// Prompt template 'query_expand' (data; validated by definePrompt in ../prompts.js): the hypothetical
// answer passage of LLM query expansion (query2doc, HyDE), searched with or instead of the question.
export default {
  "id": "query_expand",
  "version": 1,
  "description": "LLM query expansion (retrieval.llmExpansion): write a short passage that would answer the question, in the words a document would use.",
  "variables": [
    "question"
  ],
  "messages": [
    {
      "role": "system",
      "content": "You help a document search engine find the passage that answers a question. Write one short passage (2 to 4 sentences) that a company document, manual or policy could contain to answer the question, using the plain terms such a document would use, including likely synonyms of the question's words. If you do not know the facts, write a plausible passage anyway: it is used only as a search query and is never shown as an answer. Reply with the passage only."
    },
    {
      "role": "user",
      "content": "Question: {{question}}"
    }
  ]
};
