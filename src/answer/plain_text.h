// Markdown chunk text -> answer units in plain text: sentences of paragraphs and list items, table
// rows rendered with their column names ("Q4 2024 — units: 17,200"), each with the byte span of its
// source in the chunk (for citations and highlights) and the header it sits under. Headers,
// table separators and fenced code are not units. The extractive answerer reads these.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ragwasm::answer {

enum class UnitKind { kSentence, kListItem, kTableRow };

struct Unit {
  UnitKind kind = UnitKind::kSentence;
  std::size_t start = 0;  // byte span of the source in the chunk text (markup included)
  std::size_t end = 0;
  std::string text;       // plain text: emphasis, code marks and link targets removed, white space collapsed
  std::string header;     // plain text of the nearest header above the unit in this chunk, then the last
                          // question sentence after that header, if any (an FAQ's question); "" if none
};

// Inline markdown -> plain text: "**22 days**" -> "22 days", "[the guide](x.md)" -> "the guide",
// "![alt](i.png)" -> "alt", backticks, '*' and "__" removed, white space runs (newlines too) -> one
// space, leading/trailing space trimmed. A leading "#... " header marker is removed too.
std::string plain_inline(std::string_view markdown);

// A markdown document -> plain text, line by line (the `chunker.preprocess: "markdown-to-text"` step of a
// pipeline config, run before splitting): header markers, list and block-quote markers, emphasis, code marks
// and link targets removed (plain_inline per line); table separator rows, horizontal rules and code fence
// lines dropped (fenced code kept as written); a table row becomes its plain cells joined by '\t'. Blank
// lines are kept as paragraph breaks (runs of them become one). Never fails: text that is not markdown
// comes back with each line trimmed and its white space runs collapsed.
std::string markdown_to_text(std::string_view markdown);

// The answer units of a chunk text, in text order. A table's first row (followed by a |---| row)
// gives the column names; a data row renders as "<first cell> — <col 2>: <cell 2>; <col 3>: <cell 3>"
// (cells without a column name, or an empty cell, are left out of the "name: value" list).
// Paragraph text is split with text::split_sentences; a sentence ending in '?' is not a unit but is
// appended to the header of the units after it (until the next header or question); list items ("- ", "* ", "+ ", "1. ") start a
// new unit group; fenced code blocks (``` or ~~~) are skipped. Never fails: text that is not markdown
// is one paragraph.
std::vector<Unit> answer_units(std::string_view chunk_text);

}  // namespace ragwasm::answer
