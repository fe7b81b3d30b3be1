// @ts-check
// Prompt template 'metadata_extract' (data; validated by definePrompt in ../prompts.js).
export default {
  "id": "metadata_extract",
  "version": 1,
  "description": "Read a whole document and list document-level facts as key: value lines (company, date, form type, key figures, sections).",
  "variables": [
    "document",
    "keys"
  ],
  "messages": [
    {
      "role": "system",
      "content": "You extract catalogue facts from one document. Reply with one line per fact in the form `key: value` and nothing else. Use these keys when the document states them: {{keys}}. Leave out a key the document does not state; never guess. Dates as YYYY-MM-DD when the day is known, else YYYY-MM or YYYY. For key figures give the number with its unit and period, separated by semicolons. For sections list the main headings in order, separated by semicolons."
    },
    {
      "role": "user",
      "content": "<document>\n{{document}}\n</document>"
    }
  ],
  "reply": {
    "kind": "key_values"
  }
};
