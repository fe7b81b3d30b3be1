// @ts-check
// Prompt template 'chunk_context' (data; validated by definePrompt in ../prompts.js).
export default {
  "id": "chunk_context",
  "version": 1,
  "description": "Situate one chunk within its document in 50-100 tokens, prepended to the chunk before indexing (contextual retrieval). The document comes first and is identical for every chunk of a batch so provider prompt caching can reuse it.",
  "variables": [
    "document",
    "chunk"
  ],
  "messages": [
    {
      "role": "system",
      "content": "You write short context notes for search indexing. Given a whole document and one excerpt from it, write 50 to 100 tokens that place the excerpt within the document: which document it is (title, organisation, date if known), which section it comes from, and what the excerpt is about, naming entities the excerpt refers to only indirectly. Reply with the note only, no preamble, no quotation of the excerpt."
    },
    {
      "role": "user",
      "content": [
        {
          "text": "<document>\n{{document}}\n</document>",
          "cache": true
        },
        {
          "text": "<excerpt>\n{{chunk}}\n</excerpt>\nWrite the context note for this excerpt."
        }
      ]
    }
  ],
  "target_tokens": [
    50,
    100
  ]
};
