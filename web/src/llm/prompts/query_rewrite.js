// @ts-check
// Prompt template 'query_rewrite' (data; validated by definePrompt in ../prompts.js).
export default {
  "id": "query_rewrite",
  "version": 1,
  "description": "Optional: rewrite a conversational question into a standalone search query.",
  "variables": [
    "question",
    "history"
  ],
  "messages": [
    {
      "role": "system",
      "content": "You turn a user's latest question into one standalone search query for a document search engine. Resolve pronouns and references using the conversation, keep names, numbers and technical terms exactly, drop filler words. Reply with the query only, on one line."
    },
    {
      "role": "user",
      "content": "Conversation so far:\n{{history}}\n\nLatest question: {{question}}"
    }
  ]
};
