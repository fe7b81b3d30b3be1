// Markdown-header splitting: ATX and setext headers (outside fenced code) start sections; each
// section becomes one chunk carrying its h1..h6 path. A section longer than chunk_size is cut
// between blocks (runs of non-blank lines; a fenced code block, blank lines included, is one block,
// so tables and code are never cut), and a block that alone exceeds chunk_size is split with the
// strict recursive splitter (markdown separators).
#include <string>
#include <string_view>
#include <vector>

#include "chunk/chunk.h"

namespace ragwasm::chunk {
namespace {

struct Line {
  std::size_t start;  // first byte
  std::size_t end;    // byte before the line break ('\n' excluded; a trailing '\r' kept)
  std::size_t next;   // start of the next line
};

std::vector<Line> lines_of(std::string_view t) {
  std::vector<Line> out;
  std::size_t s = 0;
  while (s < t.size()) {
    std::size_t nl = t.find('\n', s);
    if (nl == std::string_view::npos) {
      out.push_back(Line{s, t.size(), t.size()});
      break;
    }
    out.push_back(Line{s, nl, nl + 1});
    s = nl + 1;
  }
  return out;
}

std::string_view content(std::string_view t, const Line& l) {
  std::string_view v = t.substr(l.start, l.end - l.start);
  if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
  return v;
}

bool is_blank(std::string_view v) {
  for (char c : v) {
    if (c != ' ' && c != '\t') return false;
  }
  return true;
}

// Leading spaces (at most 3 allowed for block markers); returns npos when 4 or more.
std::size_t indent(std::string_view v) {
  std::size_t i = 0;
  while (i < v.size() && v[i] == ' ') ++i;
  return i <= 3 ? i : std::string_view::npos;
}

std::string trim_ascii(std::string_view v) {
  std::size_t a = 0;
  std::size_t b = v.size();
  while (a < b && (v[a] == ' ' || v[a] == '\t')) ++a;
  while (b > a && (v[b - 1] == ' ' || v[b - 1] == '\t')) --b;
  return std::string(v.substr(a, b - a));
}

// Fence opener/closer: returns fence char and length (0 when not a fence line).
std::size_t fence(std::string_view v, char* ch) {
  const std::size_t i = indent(v);
  if (i == std::string_view::npos || i >= v.size()) return 0;
  const char c = v[i];
  if (c != '`' && c != '~') return 0;
  std::size_t j = i;
  while (j < v.size() && v[j] == c) ++j;
  if (j - i < 3) return 0;
  if (c == '`' && v.substr(j).find('`') != std::string_view::npos) return 0;  // CommonMark: no ` in info
  *ch = c;
  return j - i;
}

// ATX header level (0 when not one) and its text.
int atx(std::string_view v, std::string* text) {
  const std::size_t i = indent(v);
  if (i == std::string_view::npos) return 0;
  std::size_t j = i;
  while (j < v.size() && v[j] == '#') ++j;
  const std::size_t level = j - i;
  if (level < 1 || level > 6) return 0;
  if (j < v.size() && v[j] != ' ' && v[j] != '\t') return 0;
  std::string s = trim_ascii(v.substr(j));
  // Optional closing sequence: spaces then #s at the end.
  std::size_t k = s.size();
  while (k > 0 && s[k - 1] == '#') --k;
  if (k == 0) {
    s.clear();
  } else if (k < s.size() && (s[k - 1] == ' ' || s[k - 1] == '\t')) {
    s = trim_ascii(std::string_view(s).substr(0, k));
  }
  *text = s;
  return static_cast<int>(level);
}

// Setext underline: 1 for ===, 2 for ---, 0 otherwise.
int setext_underline(std::string_view v) {
  const std::size_t i = indent(v);
  if (i == std::string_view::npos || i >= v.size()) return 0;
  const char c = v[i];
  if (c != '=' && c != '-') return 0;
  std::size_t j = i;
  while (j < v.size() && v[j] == c) ++j;
  if (!is_blank(v.substr(j))) return 0;
  return c == '=' ? 1 : 2;
}

// A line that can be (part of) a setext header's text: a plain paragraph line.
bool paragraph_line(std::string_view v) {
  if (is_blank(v)) return false;
  const std::size_t i = indent(v);
  if (i == std::string_view::npos) return false;  // indented code
  const char c = v[i];
  if (c == '|' || c == '>' || c == '#') return false;
  if ((c == '-' || c == '*' || c == '+') && (i + 1 == v.size() || v[i + 1] == ' ' || v[i + 1] == '\t')) return false;
  std::size_t j = i;
  while (j < v.size() && v[j] >= '0' && v[j] <= '9') ++j;
  if (j > i && j < v.size() && (v[j] == '.' || v[j] == ')')) return false;
  char ch = 0;
  if (fence(v, &ch)) return false;
  if (setext_underline(v)) return false;
  return true;
}

}  // namespace

std::vector<Header> find_headers(std::string_view t) {
  std::vector<Header> out;
  const std::vector<Line> lines = lines_of(t);
  bool in_fence = false;
  char fence_char = 0;
  std::size_t fence_len = 0;
  std::size_t para_first = 0;  // first line of the current paragraph run
  bool in_para = false;
  for (std::size_t li = 0; li < lines.size(); ++li) {
    const std::string_view v = content(t, lines[li]);
    if (in_fence) {
      char c = 0;
      const std::size_t fl = fence(v, &c);
      if (fl >= fence_len && c == fence_char && is_blank(v.substr(v.find(c) + fl))) in_fence = false;
      continue;
    }
    char c = 0;
    if (const std::size_t fl = fence(v, &c)) {
      in_fence = true;
      fence_char = c;
      fence_len = fl;
      in_para = false;
      continue;
    }
    std::string text;
    if (const int level = atx(v, &text)) {
      out.push_back(Header{level, lines[li].start, lines[li].next, text});
      in_para = false;
      continue;
    }
    if (in_para) {
      if (const int level = setext_underline(v)) {
        std::string joined;
        for (std::size_t k = para_first; k < li; ++k) {
          if (!joined.empty()) joined += ' ';
          joined += trim_ascii(content(t, lines[k]));
        }
        out.push_back(Header{level, lines[para_first].start, lines[li].next, joined});
        in_para = false;
        continue;
      }
    }
    if (paragraph_line(v)) {
      if (!in_para) {
        in_para = true;
        para_first = li;
      }
    } else {
      in_para = false;
    }
  }
  return out;
}

namespace {

struct Block {
  std::size_t start;
  std::size_t end;
};

// Runs of non-blank lines within [a, b); a fenced code block (blank lines included) is one block.
std::vector<Block> blocks_of(std::string_view t, std::size_t a, std::size_t b) {
  std::vector<Block> out;
  const std::string_view sub = t.substr(a, b - a);
  const std::vector<Line> lines = lines_of(sub);
  bool open = false;
  Block cur{0, 0};
  bool in_fence = false;
  char fence_char = 0;
  std::size_t fence_len = 0;
  for (const Line& l : lines) {
    const std::string_view v = content(sub, l);
    if (in_fence) {
      cur.end = a + l.end;
      char c = 0;
      const std::size_t fl = fence(v, &c);
      if (fl >= fence_len && c == fence_char && is_blank(v.substr(v.find(c) + fl))) in_fence = false;
      continue;
    }
    char c = 0;
    if (const std::size_t fl = fence(v, &c)) {
      if (!open) {
        cur = Block{a + l.start, a + l.end};
        open = true;
      }
      cur.end = a + l.end;
      in_fence = true;
      fence_char = c;
      fence_len = fl;
      continue;
    }
    if (is_blank(v)) {
      if (open) out.push_back(cur);
      open = false;
      continue;
    }
    if (!open) {
      cur = Block{a + l.start, a + l.end};
      open = true;
    }
    cur.end = a + l.end;
  }
  if (open) out.push_back(cur);
  return out;
}

void split_section(std::string_view t, std::size_t a, std::size_t b, int header, const ChunkOptions& o,
                   std::vector<ChunkSpan>* out) {
  trim_js(t, &a, &b);
  if (a >= b) return;
  if (measure(t.substr(a, b - a), o.unit) <= o.chunk_size) {
    out->push_back(ChunkSpan{a, b, header});
    return;
  }
  ChunkOptions sub = o;
  sub.strict = true;
  const std::vector<Block> blocks = blocks_of(t, a, b);
  std::size_t cur_start = 0;
  std::size_t cur_end = 0;
  std::size_t cur_len = 0;
  bool open = false;
  auto flush = [&] {
    if (!open) return;
    std::size_t s = cur_start;
    std::size_t e = cur_end;
    trim_js(t, &s, &e);
    if (s < e) out->push_back(ChunkSpan{s, e, header});
    open = false;
  };
  for (const Block& bl : blocks) {
    const std::size_t bl_len = measure(t.substr(bl.start, bl.end - bl.start), o.unit);
    if (bl_len > o.chunk_size) {
      flush();
      for (ChunkSpan c : split_recursive(t.substr(bl.start, bl.end - bl.start), sub, markdown_separators())) {
        out->push_back(ChunkSpan{bl.start + c.start, bl.start + c.end, header});
      }
      continue;
    }
    if (open) {
      const std::size_t gap = measure(t.substr(cur_end, bl.end - cur_end), o.unit);
      if (cur_len + gap <= o.chunk_size) {
        cur_len += gap;
        cur_end = bl.end;
        continue;
      }
      flush();
    }
    cur_start = bl.start;
    cur_end = bl.end;
    cur_len = bl_len;
    open = true;
  }
  flush();
}

}  // namespace

ChunkList split_markdown_headers(std::string_view t, const ChunkOptions& o) {
  ChunkList list;
  if (t.empty()) return list;
  std::vector<Header> headers;
  for (Header& h : find_headers(t)) {
    if (h.level <= o.split_levels) headers.push_back(std::move(h));
  }
  HeaderPath path;
  // Preamble before the first header: no header path.
  split_section(t, 0, headers.empty() ? t.size() : headers[0].start, -1, o, &list.chunks);
  for (std::size_t k = 0; k < headers.size(); ++k) {
    const Header& h = headers[k];
    path.levels[h.level - 1] = h.text;
    for (int d = h.level; d < 6; ++d) path.levels[d].clear();
    const int index = static_cast<int>(list.headers.size());
    list.headers.push_back(path);
    const std::size_t start = o.strip_headers ? h.end : h.start;
    const std::size_t end = k + 1 < headers.size() ? headers[k + 1].start : t.size();
    split_section(t, start < end ? start : end, end, index, o, &list.chunks);
  }
  return list;
}

}  // namespace ragwasm::chunk
