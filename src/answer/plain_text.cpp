// Markdown -> plain answer units (see plain_text.h).
#include "answer/plain_text.h"

#include <cctype>

#include "text/sentences.h"

namespace ragwasm::answer {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Length of a list marker at the start of `line` (after indentation), 0 if none.
std::size_t list_marker(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  if (i + 1 < line.size() && (line[i] == '-' || line[i] == '*' || line[i] == '+') && line[i + 1] == ' ') return i + 2;
  std::size_t j = i;
  while (j < line.size() && std::isdigit(static_cast<unsigned char>(line[j]))) ++j;
  if (j > i && j + 1 < line.size() && (line[j] == '.' || line[j] == ')') && line[j + 1] == ' ') return j + 2;
  return 0;
}

bool is_fence(std::string_view line) {
  line = trim(line);
  return line.substr(0, 3) == "```" || line.substr(0, 3) == "~~~";
}

std::size_t header_marker(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && i < 6 && line[i] == '#') ++i;
  if (i == 0 || (i < line.size() && line[i] != ' ')) return 0;
  return i;
}

bool is_rule_or_setext(std::string_view line) {
  line = trim(line);
  if (line.size() < 3) return false;
  for (char c : line) {
    if (c != '-' && c != '=' && c != '*' && c != '_' && c != ' ') return false;
  }
  return true;
}

bool is_table_line(std::string_view line) { return !trim(line).empty() && trim(line).front() == '|'; }

bool is_table_separator(std::string_view line) {
  line = trim(line);
  if (line.empty() || line.front() != '|') return false;
  bool dash = false;
  for (char c : line) {
    if (c == '-') dash = true;
    else if (c != '|' && c != ':' && c != ' ') return false;
  }
  return dash;
}

std::vector<std::string> table_cells(std::string_view line) {
  line = trim(line);
  if (!line.empty() && line.front() == '|') line.remove_prefix(1);
  if (!line.empty() && line.back() == '|') line.remove_suffix(1);
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || (line[i] == '|' && (i == 0 || line[i - 1] != '\\'))) {
      cells.push_back(plain_inline(line.substr(start, i - start)));
      start = i + 1;
    }
  }
  return cells;
}

}  // namespace

std::string plain_inline(std::string_view s) {
  s = trim(s);
  if (std::size_t h = header_marker(s)) s = trim(s.substr(h));
  std::string out;
  out.reserve(s.size());
  // Once a '[' finds no ']' after it, or a "](" no ')' after it, no later '[' can start a link (its
  // ']' is at or after this one): stop looking, so a line of many '[' stays linear in time.
  bool links = true;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    // [text](target) and ![alt](target) -> text / alt
    if (links && (c == '[' || (c == '!' && i + 1 < s.size() && s[i + 1] == '['))) {
      const std::size_t open = c == '!' ? i + 1 : i;
      const std::size_t close = s.find(']', open + 1);
      if (close == std::string_view::npos) links = false;
      if (close != std::string_view::npos && close + 1 < s.size() && s[close + 1] == '(') {
        const std::size_t paren = s.find(')', close + 2);
        if (paren != std::string_view::npos) {
          out += plain_inline(s.substr(open + 1, close - open - 1));
          i = paren;
          continue;
        }
        links = false;
      }
    }
    if (c == '*' || c == '`') continue;
    if (c == '_' && i + 1 < s.size() && s[i + 1] == '_') {
      ++i;
      continue;
    }
    if (is_space(c)) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string markdown_to_text(std::string_view markdown) {
  std::string out;
  out.reserve(markdown.size());
  bool in_fence = false;
  bool blank = true;  // the last line written was blank (or nothing was written yet)
  auto put = [&](std::string_view line) {
    if (line.empty()) {
      if (!blank) out += '\n';
      blank = true;
      return;
    }
    out.append(line);
    out += '\n';
    blank = false;
  };
  std::size_t pos = 0;
  while (pos < markdown.size()) {
    std::size_t eol = markdown.find('\n', pos);
    if (eol == std::string_view::npos) eol = markdown.size();
    std::string_view line = markdown.substr(pos, eol - pos);
    pos = eol + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (is_fence(line)) {
      in_fence = !in_fence;
      continue;
    }
    if (in_fence) {
      put(line);
      continue;
    }
    if (trim(line).empty()) {
      put({});
      continue;
    }
    if (is_table_separator(line) || is_rule_or_setext(line)) continue;
    if (is_table_line(line)) {
      std::string row;
      for (const auto& cell : table_cells(line)) {
        if (!row.empty()) row += '\t';
        row += cell;
      }
      put(row);
      continue;
    }
    std::string_view body = trim(line);
    while (!body.empty() && body.front() == '>') body = trim(body.substr(1));  // block quotes, nested
    if (std::size_t m = list_marker(body)) body = body.substr(m);
    put(plain_inline(body));
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::vector<Unit> answer_units(std::string_view text) {
  std::vector<Unit> units;
  std::string header;
  std::string question;  // the last FAQ-style question sentence under the current header
  auto label = [&] { return question.empty() ? header : header.empty() ? question : header + " " + question; };
  std::vector<std::string> columns;
  bool in_fence = false;
  // The open paragraph or list item: [para_start, para_end) in bytes, kind.
  std::size_t para_start = 0, para_end = 0;
  bool para_open = false;
  UnitKind para_kind = UnitKind::kSentence;
  auto flush = [&] {
    if (!para_open) return;
    para_open = false;
    const std::string_view para = text.substr(para_start, para_end - para_start);
    for (const auto& sp : text::split_sentences(para)) {
      std::string plain = plain_inline(para.substr(sp.start, sp.end - sp.start));
      if (plain.empty()) continue;
      // A question (an FAQ entry) is not an answer: it labels the units after it, like a header.
      if (plain.back() == '?') {
        question = std::move(plain);
        continue;
      }
      units.push_back({para_kind, para_start + sp.start, para_start + sp.end, std::move(plain), label()});
    }
  };
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string_view line = text.substr(pos, eol - pos);
    const std::size_t line_start = pos;
    pos = eol + 1;
    if (is_fence(line)) {
      flush();
      in_fence = !in_fence;
      continue;
    }
    if (in_fence) continue;
    if (trim(line).empty()) {
      flush();
      columns.clear();
      continue;
    }
    if (header_marker(line)) {
      flush();
      header = plain_inline(line);
      question.clear();
      columns.clear();
      continue;
    }
    if (is_table_line(line)) {
      flush();
      if (is_table_separator(line)) continue;
      // A header row is a table line followed by a separator line.
      const std::string_view next = pos < text.size() ? text.substr(pos, text.find('\n', pos) - pos) : std::string_view();
      auto cells = table_cells(line);
      if (is_table_separator(next)) {
        columns = std::move(cells);
        continue;
      }
      std::string row;
      std::string rest;
      for (std::size_t k = 0; k < cells.size(); ++k) {
        if (k == 0) {
          row = cells[0];
          continue;
        }
        if (cells[k].empty()) continue;
        if (!rest.empty()) rest += "; ";
        if (k < columns.size() && !columns[k].empty()) rest += columns[k] + ": ";
        rest += cells[k];
      }
      if (!rest.empty()) row += row.empty() ? rest : " — " + rest;
      const std::string_view src = trim(line);
      const std::size_t s0 = line_start + static_cast<std::size_t>(src.data() - line.data());
      if (!row.empty()) units.push_back({UnitKind::kTableRow, s0, s0 + src.size(), std::move(row), label()});
      continue;
    }
    if (is_rule_or_setext(line)) {
      flush();
      continue;
    }
    // A line that is a question on its own ("**How long is the warranty?**"): an FAQ entry's label.
    if (!para_open && list_marker(line) == 0) {
      std::string plain = plain_inline(line);
      if (!plain.empty() && plain.back() == '?') {
        question = std::move(plain);
        continue;
      }
    }
    if (const std::size_t m = list_marker(line)) {
      flush();
      para_open = true;
      para_kind = UnitKind::kListItem;
      para_start = line_start + m;
      para_end = line_start + line.size();
      continue;
    }
    if (!para_open) {
      para_open = true;
      para_kind = UnitKind::kSentence;
      para_start = line_start + line.find_first_not_of(" \t");
    }
    const std::size_t last = line.find_last_not_of(" \t\r");
    para_end = line_start + (last == std::string_view::npos ? 0 : last + 1);
  }
  flush();
  return units;
}

}  // namespace ragwasm::answer
