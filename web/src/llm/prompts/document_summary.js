// @ts-check
// Prompt template 'document_summary' (data; validated by definePrompt in ../prompts.js).
export default {
  "id": "document_summary",
  "version": 1,
  "description": "Summarize a whole document in 2-4 sentences (about 50-100 tokens) that are prepended to every chunk of it before indexing (document context, finance-RAG style: chunker.context.llmSummary).",
  "variables": [
    "title",
    "document"
  ],
  "messages": [
    {
      "role": "system",
      "content": "You write short document summaries for search indexing. Given one whole document, write 2 to 4 sentences (50 to 100 tokens) saying what the document is (its title, type, organisation and date when stated), what it covers and the key entities, terms and figures it names, so that any excerpt of it can be found by a search for them. Use only facts the document states. Reply with the summary only, no preamble."
    },
    {
      "role": "user",
      "content": "<title>{{title}}</title>\n<document>\n{{document}}\n</document>\nWrite the summary of this document."
    }
  ],
  "target_tokens": [
    50,
    100
  ]
};
