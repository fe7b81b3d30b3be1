// WordPiece tokenizer (see wordpiece.h). Order of steps per text, as in transformers.js/tokenizers:
// split on added tokens (literal, leftmost-longest) -> BertNormalizer (clean, CJK spacing, lowercase,
// NFD + drop Mn) -> BertPreTokenizer (white space + punctuation) -> greedy longest-match WordPiece.
#include "embed/wordpiece.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <utility>

#include "common/json_depth.h"
#include "common/limits.h"
#include "embed/bert_unicode.h"
#include "text/utf8.h"

namespace ragwasm::embed {
namespace {

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

void append_utf8_cp(std::string& out, char32_t cp) { text::append_utf8(out, cp); }

// JS String.prototype.trimStart / trimEnd on UTF-8 (white space = JS \s).
std::string_view trim_start(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t len = 1;
    const char32_t cp = text::decode_utf8(s, i, &len);
    if (!unicode::is_white_space(cp)) break;
    i += len;
  }
  return s.substr(i);
}
std::string_view trim_end(std::string_view s) {
  std::size_t end = s.size();
  while (end > 0) {
    std::size_t start = end - 1;
    while (start > 0 && !text::is_utf8_lead(static_cast<unsigned char>(s[start])) && end - start < 4) --start;
    std::size_t len = 1;
    const char32_t cp = text::decode_utf8(s, start, &len);
    if (start + len != end || !unicode::is_white_space(cp)) break;
    end = start;
  }
  return s.substr(0, end);
}


}  // namespace

Result<Padding> parse_padding(std::string_view name) {
  if (name == "none") return Padding::kNone;
  if (name == "longest") return Padding::kLongest;
  if (name == "max_length") return Padding::kMaxLength;
  return make_error(ErrorCode::kInvalidArgument, "padding: expected 'none', 'longest' or 'max_length', got '" + std::string(name) + "'");
}

void WordPieceTokenizer::VocabMap::build(const std::vector<std::pair<std::string_view, std::int32_t>>& items) {
  std::size_t cap = 16;
  while (cap < items.size() * 2) cap <<= 1;
  slots.assign(cap, 0);
  entries.clear();
  storage.clear();
  for (const auto& [key, id] : items) {
    const std::uint64_t h = fnv1a(key);
    std::size_t i = static_cast<std::size_t>(h) & (cap - 1);
    bool replaced = false;
    while (slots[i] != 0) {
      Entry& e = entries[slots[i] - 1];
      if (std::string_view(storage).substr(e.offset, e.length) == key) {
        e.id = id;  // a repeated token: the later id wins, as in a JSON object / Python dict
        replaced = true;
        break;
      }
      i = (i + 1) & (cap - 1);
    }
    if (replaced) continue;
    entries.push_back(Entry{static_cast<std::uint32_t>(storage.size()), static_cast<std::uint32_t>(key.size()), id});
    storage.append(key.data(), key.size());
    slots[i] = static_cast<std::uint32_t>(entries.size());
  }
}

std::int32_t WordPieceTokenizer::VocabMap::find(std::string_view key) const {
  if (slots.empty()) return -1;
  const std::size_t mask = slots.size() - 1;
  std::size_t i = static_cast<std::size_t>(fnv1a(key)) & mask;
  while (slots[i] != 0) {
    const Entry& e = entries[slots[i] - 1];
    if (e.length == key.size() && std::string_view(storage.data() + e.offset, e.length) == key) return e.id;
    i = (i + 1) & mask;
  }
  return -1;
}

namespace {
inline std::size_t mix(std::uint64_t k) { return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> 20); }
}  // namespace

void WordPieceTokenizer::Trie::build(const std::vector<std::string>& tokens) {
  std::size_t bytes = 0;
  for (const auto& t : tokens) bytes += t.size();
  std::size_t cap = 1024;
  while (cap < bytes * 2 + 2) cap <<= 1;
  edges.assign(cap, Edge{0, 0});
  mask = cap - 1;
  terminal.assign(1, -1);
  for (std::size_t id = 0; id < tokens.size(); ++id) {
    std::uint32_t node = 0;
    for (unsigned char c : tokens[id]) {
      const std::uint32_t key = ((node << 8) | c) + 1;
      std::size_t i = mix(key) & mask;
      while (edges[i].key != 0 && edges[i].key != key) i = (i + 1) & mask;
      if (edges[i].key == 0) {
        edges[i] = Edge{key, static_cast<std::uint32_t>(terminal.size())};
        terminal.push_back(-1);
      }
      node = edges[i].child;
    }
    if (!tokens[id].empty()) terminal[node] = static_cast<std::int32_t>(id);  // a repeated token: the later id wins
  }
}

std::uint32_t WordPieceTokenizer::Trie::step(std::uint32_t node, unsigned char byte) const {
  const std::uint32_t key = ((node << 8) | byte) + 1;
  std::size_t i = mix(key) & mask;
  while (edges[i].key != 0) {
    if (edges[i].key == key) return edges[i].child;
    i = (i + 1) & mask;
  }
  return 0;
}

Result<WordPieceTokenizer> WordPieceTokenizer::build(std::vector<std::string> tokens, std::vector<AddedToken> added,
                                                     const WordPieceConfig& config, bool json_vocab) {
  (void)json_vocab;
  if (tokens.empty()) return make_error(ErrorCode::kInvalidArgument, "vocabulary: expected at least one token, got none");
  if (tokens.size() > kMaxVocabSize) {
    return make_error(ErrorCode::kLimitExceeded, "vocabulary: " + std::to_string(tokens.size()) + " tokens, the limit is " + std::to_string(kMaxVocabSize));
  }
  if (config.continuing_subword_prefix.empty()) {
    return make_error(ErrorCode::kInvalidArgument, "continuing_subword_prefix: expected a non-empty string, got ''");
  }
  if (config.max_input_chars_per_word == 0) {
    return make_error(ErrorCode::kInvalidArgument, "max_input_chars_per_word: expected >= 1, got 0");
  }
  WordPieceTokenizer t;
  t.config_ = config;
  t.tokens_ = std::move(tokens);
  std::vector<std::pair<std::string_view, std::int32_t>> words;
  words.reserve(t.tokens_.size());
  for (std::size_t id = 0; id < t.tokens_.size(); ++id) {
    if (!t.tokens_[id].empty()) words.emplace_back(t.tokens_[id], static_cast<std::int32_t>(id));
  }
  t.words_.build(words);
  std::size_t vocab_bytes = 0;
  for (const auto& tok : t.tokens_) vocab_bytes += tok.size();
  if (vocab_bytes >= (1u << 24) - 1) {
    return make_error(ErrorCode::kLimitExceeded, "vocabulary: " + std::to_string(vocab_bytes) + " bytes of tokens, the limit is 16 MiB");
  }
  t.trie_.build(t.tokens_);
  std::uint32_t node = 0;
  for (unsigned char c : config.continuing_subword_prefix) {
    node = t.trie_.step(node, c);
    if (node == 0) break;
  }
  t.continuation_root_ = node;
  auto require = [&](const std::string& token, const char* name, std::int32_t* out) -> Status {
    *out = t.words_.find(token);
    for (const AddedToken& a : added) {
      if (a.content == token) *out = a.id;
    }
    if (*out < 0) {
      return make_error(ErrorCode::kInvalidArgument, std::string(name) + ": the token '" + token + "' is not in the vocabulary");
    }
    return Status::success();
  };
  RAGWASM_TRY(require(config.unk_token, "unk_token", &t.unk_id_));
  RAGWASM_TRY(require(config.cls_token, "cls_token", &t.cls_id_));
  RAGWASM_TRY(require(config.sep_token, "sep_token", &t.sep_id_));
  RAGWASM_TRY(require(config.pad_token, "pad_token", &t.pad_id_));
  for (const AddedToken& a : added) {
    if (a.content.empty()) return make_error(ErrorCode::kInvalidArgument, "added_tokens: expected non-empty content, got ''");
    if (a.id < 0) return make_error(ErrorCode::kInvalidArgument, "added_tokens: expected an id >= 0, got " + std::to_string(a.id));
    t.added_first_byte_[static_cast<unsigned char>(a.content[0])] = true;
  }
  t.added_ = std::move(added);
  return t;
}

Result<WordPieceTokenizer> WordPieceTokenizer::from_vocab_txt(std::string_view vocab, const WordPieceConfig& config) {
  std::vector<std::string> tokens;
  std::size_t pos = 0;
  while (pos < vocab.size()) {
    std::size_t nl = vocab.find('\n', pos);
    if (nl == std::string_view::npos) nl = vocab.size();
    std::string_view line = vocab.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (tokens.size() >= kMaxVocabSize) {
      return make_error(ErrorCode::kLimitExceeded, "vocab.txt: more than " + std::to_string(kMaxVocabSize) + " tokens");
    }
    tokens.emplace_back(line);
    pos = nl + 1;
  }
  if (!text::is_valid_utf8(vocab)) {
    return make_error(ErrorCode::kInvalidUtf8, "vocab.txt: invalid UTF-8 at byte " + std::to_string(text::find_invalid_utf8(vocab)));
  }
  // The BERT special tokens present in the vocabulary are matched literally (never split), as
  // BertTokenizer's never_split / the converted tokenizer.json added_tokens do.
  std::vector<AddedToken> added;
  for (const char* s : {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}) {
    for (std::size_t id = 0; id < tokens.size(); ++id) {
      if (tokens[id] == s) {
        added.push_back(AddedToken{s, static_cast<std::int32_t>(id), false, false});
        break;
      }
    }
  }
  return build(std::move(tokens), std::move(added), config, false);
}

Result<WordPieceTokenizer> WordPieceTokenizer::from_tokenizer_json(std::string_view json_text) {
  using nlohmann::json;
  RAGWASM_TRY(check_json_depth(json_text, "tokenizer.json"));
  json j = json::parse(json_text.begin(), json_text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return make_error(ErrorCode::kParseError, "tokenizer.json: not valid JSON");
  if (!j.is_object()) return make_error(ErrorCode::kInvalidArgument, "tokenizer.json: expected a JSON object");
  WordPieceConfig config;
  const json& model = j.contains("model") ? j["model"] : json();
  if (!model.is_object() || model.value("type", std::string()) != "WordPiece" || !model.contains("vocab") || !model["vocab"].is_object()) {
    std::string got = model.is_object() ? model.value("type", std::string("(none)")) : std::string("(none)");
    return make_error(ErrorCode::kInvalidArgument, "tokenizer.json model.type: expected 'WordPiece' with a vocab object, got '" + got + "'");
  }
  try {
    if (model.contains("unk_token") && model["unk_token"].is_string()) config.unk_token = model["unk_token"].get<std::string>();
    if (model.contains("continuing_subword_prefix") && model["continuing_subword_prefix"].is_string()) {
      config.continuing_subword_prefix = model["continuing_subword_prefix"].get<std::string>();
    }
    if (model.contains("max_input_chars_per_word") && model["max_input_chars_per_word"].is_number_unsigned()) {
      config.max_input_chars_per_word = model["max_input_chars_per_word"].get<std::size_t>();
    }
    const json& vocab = model["vocab"];
    if (vocab.size() > kMaxVocabSize) {
      return make_error(ErrorCode::kLimitExceeded, "tokenizer.json vocab: " + std::to_string(vocab.size()) + " tokens, the limit is " + std::to_string(kMaxVocabSize));
    }
    std::vector<std::string> tokens;
    for (auto it = vocab.begin(); it != vocab.end(); ++it) {
      if (!it.value().is_number_integer() || it.value().get<std::int64_t>() < 0 ||
          it.value().get<std::int64_t>() >= static_cast<std::int64_t>(kMaxVocabSize)) {
        return make_error(ErrorCode::kInvalidArgument, "tokenizer.json vocab['" + it.key() + "']: expected an id in [0, " + std::to_string(kMaxVocabSize) + ")");
      }
      const std::size_t id = it.value().get<std::size_t>();
      if (id >= tokens.size()) tokens.resize(id + 1);
      tokens[id] = it.key();
    }
    const json& norm = j.contains("normalizer") ? j["normalizer"] : json();
    if (norm.is_null()) {
      config.normalizer = NormalizerOptions{false, false, false, 0};
    } else if (norm.is_object() && norm.value("type", std::string()) == "BertNormalizer") {
      config.normalizer.clean_text = norm.value("clean_text", true);
      config.normalizer.handle_chinese_chars = norm.value("handle_chinese_chars", true);
      config.normalizer.lowercase = norm.value("lowercase", true);
      config.normalizer.strip_accents = (!norm.contains("strip_accents") || norm["strip_accents"].is_null()) ? -1 : (norm["strip_accents"].get<bool>() ? 1 : 0);
    } else {
      return make_error(ErrorCode::kInvalidArgument, "tokenizer.json normalizer.type: expected 'BertNormalizer' or null, got '" +
                                                        (norm.is_object() ? norm.value("type", std::string("?")) : norm.dump()) + "'");
    }
    const json& pre = j.contains("pre_tokenizer") ? j["pre_tokenizer"] : json();
    if (!pre.is_object() || pre.value("type", std::string()) != "BertPreTokenizer") {
      return make_error(ErrorCode::kInvalidArgument, "tokenizer.json pre_tokenizer.type: expected 'BertPreTokenizer', got " + pre.dump());
    }
    const json& post = j.contains("post_processor") ? j["post_processor"] : json();
    if (post.is_object() && post.value("type", std::string()) == "TemplateProcessing" && post.contains("single")) {
      const json& single = post["single"];
      if (!single.is_array() || single.size() != 3 || !single[0].contains("SpecialToken") || !single[2].contains("SpecialToken")) {
        return make_error(ErrorCode::kInvalidArgument, "tokenizer.json post_processor.single: expected [special, A, special]");
      }
      config.cls_token = single[0]["SpecialToken"]["id"].get<std::string>();
      config.sep_token = single[2]["SpecialToken"]["id"].get<std::string>();
    } else if (post.is_object() && post.value("type", std::string()) == "BertProcessing") {
      config.cls_token = post["cls"][0].get<std::string>();
      config.sep_token = post["sep"][0].get<std::string>();
    } else if (!post.is_null()) {
      return make_error(ErrorCode::kInvalidArgument, "tokenizer.json post_processor: expected TemplateProcessing or BertProcessing");
    }
    const json& pad = j.contains("padding") ? j["padding"] : json();
    if (pad.is_object() && pad.contains("pad_token") && pad["pad_token"].is_string()) config.pad_token = pad["pad_token"].get<std::string>();
    std::vector<AddedToken> added;
    if (j.contains("added_tokens") && j["added_tokens"].is_array()) {
      for (const json& a : j["added_tokens"]) {
        AddedToken t;
        t.content = a.at("content").get<std::string>();
        t.id = a.at("id").get<std::int32_t>();
        t.lstrip = a.value("lstrip", false);
        t.rstrip = a.value("rstrip", false);
        const bool special = a.value("special", false);
        const bool normalized = a.contains("normalized") ? a["normalized"].get<bool>() : !special;
        if (normalized) {
          return make_error(ErrorCode::kInvalidArgument, "tokenizer.json added_tokens: '" + t.content + "' is normalized; only normalized=false added tokens are supported");
        }
        if (t.id >= 0 && static_cast<std::size_t>(t.id) >= tokens.size()) tokens.resize(static_cast<std::size_t>(t.id) + 1);
        added.push_back(std::move(t));
      }
    }
    if (!config.normalizer.lowercase && config.normalizer.strip_accents < 0) config.normalizer.strip_accents = 0;
    return build(std::move(tokens), std::move(added), config, true);
  } catch (const nlohmann::json::exception& e) {
    return make_error(ErrorCode::kInvalidArgument, std::string("tokenizer.json: unexpected structure: ") + e.what());
  }
}

std::int32_t WordPieceTokenizer::token_to_id(std::string_view token) const { return words_.find(token); }

std::string_view WordPieceTokenizer::id_to_token(std::int32_t id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size()) return {};
  return tokens_[static_cast<std::size_t>(id)];
}

void WordPieceTokenizer::normalize_section(std::string_view text, std::u32string& out) const {
  const NormalizerOptions& n = config_.normalizer;
  std::u32string a;
  a.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size();) {
    std::size_t len = 1;
    const char32_t cp = text::decode_utf8(text, i, &len);
    i += len;
    if (n.clean_text) {
      if (cp == 0 || cp == 0xFFFD) continue;
      if (cp != '\t' && cp != '\n' && cp != '\r' && unicode::is_control(cp)) continue;
      if (unicode::is_white_space(cp)) {
        a.push_back(U' ');
        continue;
      }
    }
    if (n.handle_chinese_chars && unicode::is_chinese_char(cp)) {
      a.push_back(U' ');
      a.push_back(cp);
      a.push_back(U' ');
      continue;
    }
    a.push_back(cp);
  }
  const bool strip = n.lowercase ? n.strip_accents != 0 : n.strip_accents == 1;
  if (!n.lowercase && !strip) {
    out = std::move(a);
    return;
  }
  std::u32string b;
  if (n.lowercase) {
    b.reserve(a.size() + 8);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const char32_t cp = a[i];
      if (cp != 0x3A3) {
        unicode::append_lower(cp, b);
        continue;
      }
      // Final_Sigma (Unicode 3.13, as ICU/V8): preceded by a cased letter and not followed by one,
      // skipping case-ignorable characters on both sides.
      bool before = false;
      for (std::size_t k = i; k-- > 0;) {
        if (unicode::is_case_ignorable(a[k])) continue;
        before = unicode::is_cased(a[k]);
        break;
      }
      bool after = false;
      for (std::size_t k = i + 1; k < a.size(); ++k) {
        if (unicode::is_case_ignorable(a[k])) continue;
        after = unicode::is_cased(a[k]);
        break;
      }
      b.push_back(before && !after ? char32_t{0x3C2} : char32_t{0x3C3});
    }
  } else {
    b = std::move(a);
  }
  if (!strip) {
    out = std::move(b);
    return;
  }
  out.clear();
  out.reserve(b.size());
  std::u32string d;
  for (char32_t cp : b) {
    if (cp < 0xC0) {
      out.push_back(cp);
      continue;
    }
    d.clear();
    unicode::append_nfd(cp, d);
    for (char32_t c : d) {
      if (!unicode::is_nonspacing_mark(c)) out.push_back(c);
    }
  }
}

std::string WordPieceTokenizer::normalize(std::string_view text) const {
  std::u32string norm;
  normalize_section(text, norm);
  std::string out;
  for (char32_t cp : norm) append_utf8_cp(out, cp);
  return out;
}

std::vector<std::string> WordPieceTokenizer::pre_tokenize(std::string_view normalized) const {
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 0; i < normalized.size();) {
    std::size_t len = 1;
    const char32_t cp = text::decode_utf8(normalized, i, &len);
    i += len;
    if (unicode::is_white_space(cp) || unicode::is_punctuation(cp)) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
      if (unicode::is_punctuation(cp)) {
        std::string p;
        append_utf8_cp(p, cp);
        out.push_back(std::move(p));
      }
    } else {
      append_utf8_cp(cur, cp);
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

// Greedy longest-match WordPiece over one pre-tokenized word (valid UTF-8): the trie walk finds the
// longest vocabulary token starting at `start` in one pass (tokens are valid UTF-8, so a match always
// ends on a code point boundary). A word with an unmatched rest becomes one [UNK].
void WordPieceTokenizer::wordpiece(std::string_view word, std::size_t chars, std::vector<std::int32_t>& out) const {
  if (word.size() > kCacheWordBytes) {
    wordpiece_uncached(word, chars, out);
    return;
  }
  if (cache_.empty()) cache_.resize(kCacheSlots);
  std::uint32_t h = 2166136261u;  // FNV-1a 32
  for (unsigned char c : word) h = (h ^ c) * 16777619u;
  CacheSlot& slot = cache_[h & (kCacheSlots - 1)];
  if (slot.length == word.size() && std::memcmp(slot.word, word.data(), word.size()) == 0) {
    out.insert(out.end(), slot.ids, slot.ids + slot.pieces);
    return;
  }
  const std::size_t mark = out.size();
  wordpiece_uncached(word, chars, out);
  const std::size_t pieces = out.size() - mark;
  if (pieces <= kCachePieces) {
    std::memcpy(slot.word, word.data(), word.size());
    slot.length = static_cast<std::uint8_t>(word.size());
    slot.pieces = static_cast<std::uint8_t>(pieces);
    std::copy(out.begin() + static_cast<std::ptrdiff_t>(mark), out.end(), slot.ids);
  }
}

void WordPieceTokenizer::wordpiece_uncached(std::string_view word, std::size_t chars, std::vector<std::int32_t>& out) const {
  if (chars > config_.max_input_chars_per_word) {
    out.push_back(unk_id_);
    return;
  }
  // Most words are whole vocabulary tokens: one hash lookup answers them (the longest match from
  // the start is then the word itself).
  const std::int32_t whole = words_.find(word);
  if (whole >= 0) {
    out.push_back(whole);
    return;
  }
  const std::size_t mark = out.size();
  std::size_t start = 0;
  while (start < word.size()) {
    std::uint32_t node = start == 0 ? 0 : continuation_root_;
    std::int32_t best = -1;
    std::size_t best_end = start;
    if (start == 0 || node != 0) {
      for (std::size_t i = start; i < word.size(); ++i) {
        node = trie_.step(node, static_cast<unsigned char>(word[i]));
        if (node == 0) break;
        if (trie_.terminal[node] >= 0) {
          best = trie_.terminal[node];
          best_end = i + 1;
        }
      }
    }
    if (best < 0) {
      out.resize(mark);
      out.push_back(unk_id_);
      return;
    }
    out.push_back(best);
    start = best_end;
  }
}

// All-ASCII text (most English): clean, lowercase and split in one pass over bytes. Returns false when
// a byte >= 0x80 is seen (the caller then runs the general Unicode path on the whole section).
bool WordPieceTokenizer::ascii_fast_path(std::string_view text, std::vector<std::int32_t>& out) const {
  const NormalizerOptions& n = config_.normalizer;
  std::string& norm = ascii_scratch_;
  if (norm.size() < text.size()) norm.resize(text.size());
  char* const begin = &norm[0];
  char* w = begin;
  for (unsigned char c : text) {
    if (c >= 0x80) return false;
    if (n.clean_text) {
      if (c == '\t' || c == '\n' || c == '\r' || c == ' ') {
        *w++ = ' ';
        continue;
      }
      if (c < 0x20 || c == 0x7F) continue;  // Cc (0x0B and 0x0C are controls first, as in transformers.js)
    }
    *w++ = static_cast<char>(n.lowercase && c >= 'A' && c <= 'Z' ? c + 32 : c);
  }
  const std::string_view normalized(begin, static_cast<std::size_t>(w - begin));
  std::size_t word_start = 0;
  bool in_word = false;
  for (std::size_t i = 0; i < normalized.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(normalized[i]);
    const bool space = c == ' ' || (c >= 9 && c <= 13);
    const bool punct = !space && ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126));
    if (space || punct) {
      if (in_word) wordpiece(normalized.substr(word_start, i - word_start), i - word_start, out);
      in_word = false;
      if (punct) wordpiece(normalized.substr(i, 1), 1, out);
    } else if (!in_word) {
      in_word = true;
      word_start = i;
    }
  }
  if (in_word) wordpiece(normalized.substr(word_start), normalized.size() - word_start, out);
  return true;
}

void WordPieceTokenizer::tokenize_section(std::string_view text, std::vector<std::int32_t>& out) const {
  if (ascii_fast_path(text, out)) return;
  std::u32string norm;
  normalize_section(text, norm);
  std::string word;
  std::size_t chars = 0;
  auto flush = [&] {
    if (chars > 0) wordpiece(word, chars, out);
    word.clear();
    chars = 0;
  };
  for (char32_t cp : norm) {
    const bool space = unicode::is_white_space(cp);
    const bool punct = !space && unicode::is_punctuation(cp);
    if (space || punct) {
      flush();
      if (punct) {
        append_utf8_cp(word, cp);
        chars = 1;
        flush();
      }
    } else {
      append_utf8_cp(word, cp);
      ++chars;
    }
  }
  flush();
}

std::vector<std::int32_t> WordPieceTokenizer::tokenize(std::string_view text) const {
  std::vector<std::int32_t> out;
  tokenize_into(text, out);
  return out;
}

void WordPieceTokenizer::tokenize_into(std::string_view text, std::vector<std::int32_t>& out) const {
  if (added_.empty()) {
    tokenize_section(text, out);
    return;
  }
  // Split on added tokens: leftmost, longest match (transformers.js DictionarySplitter).
  struct Section {
    std::string_view text;
    int added;  // index into added_, or -1
  };
  std::vector<Section> sections;
  std::size_t start = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    int best = -1;
    if (added_first_byte_[static_cast<unsigned char>(text[i])]) {
      std::size_t best_len = 0;
      for (std::size_t a = 0; a < added_.size(); ++a) {
        const std::string& c = added_[a].content;
        if (c.size() > best_len && text.compare(i, c.size(), c) == 0) {
          best = static_cast<int>(a);
          best_len = c.size();
        }
      }
    }
    if (best < 0) {
      ++i;
      continue;
    }
    if (i > start) sections.push_back(Section{text.substr(start, i - start), -1});
    sections.push_back(Section{text.substr(i, added_[static_cast<std::size_t>(best)].content.size()), best});
    i += added_[static_cast<std::size_t>(best)].content.size();
    start = i;
  }
  if (start < text.size()) sections.push_back(Section{text.substr(start), -1});
  for (std::size_t s = 0; s < sections.size(); ++s) {
    if (sections[s].added < 0) continue;
    const AddedToken& a = added_[static_cast<std::size_t>(sections[s].added)];
    if (a.lstrip && s > 0 && sections[s - 1].added < 0) sections[s - 1].text = trim_end(sections[s - 1].text);
    if (a.rstrip && s + 1 < sections.size() && sections[s + 1].added < 0) sections[s + 1].text = trim_start(sections[s + 1].text);
  }
  for (const Section& s : sections) {
    if (s.added >= 0) {
      out.push_back(added_[static_cast<std::size_t>(s.added)].id);
    } else if (!s.text.empty()) {
      tokenize_section(s.text, out);
    }
  }
}

Result<std::vector<std::int32_t>> WordPieceTokenizer::encode(std::string_view text, const EncodeOptions& options) const {
  const std::size_t specials = options.add_special_tokens ? 2 : 0;
  if (options.max_length < std::max<std::size_t>(specials, 1) || options.max_length > kMaxSequenceLength) {
    return make_error(ErrorCode::kInvalidArgument, "maxLength: expected an integer in [" + std::to_string(std::max<std::size_t>(specials, 1)) + ", " +
                                                       std::to_string(kMaxSequenceLength) + "], got " + std::to_string(options.max_length));
  }
  if (text.size() > kMaxTextBytes) {
    return make_error(ErrorCode::kLimitExceeded, "text: " + std::to_string(text.size()) + " bytes, the limit is " + std::to_string(kMaxTextBytes));
  }
  // One vector: [CLS], the pieces appended in place, then [SEP] (no intermediate copies).
  std::vector<std::int32_t> row;
  row.reserve(text.size() / 4 + 8);
  if (options.add_special_tokens) row.push_back(cls_id_);
  const std::size_t first = row.size();
  tokenize_into(text, row);
  const std::size_t pieces = row.size() - first;
  const std::size_t cap = options.max_length - specials;
  if (pieces > cap) {
    if (!options.truncation) {
      return make_error(ErrorCode::kLimitExceeded, "text: " + std::to_string(pieces + specials) + " tokens, maxLength is " +
                                                       std::to_string(options.max_length) + " and truncation is off");
    }
    row.resize(first + cap);
  }
  if (options.add_special_tokens) row.push_back(sep_id_);
  return row;
}

namespace {

// Pads rows (row r has first_type0[r] tokens of type 0, then type 1) into a BatchEncoding.
Result<BatchEncoding> assemble_rows(std::vector<std::vector<std::int32_t>>& rows, const std::vector<std::size_t>& type0,
                                    const EncodeOptions& options, std::int32_t pad_id) {
  std::size_t longest = 0;
  for (const auto& row : rows) longest = std::max(longest, row.size());
  BatchEncoding b;
  b.rows = rows.size();
  b.cols = options.padding == Padding::kMaxLength ? options.max_length : longest;
  if (options.padding == Padding::kNone) {
    // No padding: rows are concatenated; lengths say where each one ends (cols = longest row).
    for (std::size_t r = 0; r < rows.size(); ++r) {
      b.input_ids.insert(b.input_ids.end(), rows[r].begin(), rows[r].end());
      b.token_type_ids.insert(b.token_type_ids.end(), std::min(type0[r], rows[r].size()), 0);
      b.token_type_ids.insert(b.token_type_ids.end(), rows[r].size() - std::min(type0[r], rows[r].size()), 1);
      b.lengths.push_back(static_cast<std::uint32_t>(rows[r].size()));
    }
    b.attention_mask.assign(b.input_ids.size(), 1);
    return b;
  }
  if (b.rows * b.cols > kMaxBatchTokens) {
    return make_error(ErrorCode::kLimitExceeded, "texts: a padded batch of " + std::to_string(b.rows) + " x " + std::to_string(b.cols) +
                                                     " tokens exceeds the limit of " + std::to_string(kMaxBatchTokens));
  }
  b.input_ids.assign(b.rows * b.cols, pad_id);
  b.attention_mask.assign(b.rows * b.cols, 0);
  b.token_type_ids.assign(b.rows * b.cols, 0);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto at = static_cast<std::ptrdiff_t>(r * b.cols);
    std::copy(rows[r].begin(), rows[r].end(), b.input_ids.begin() + at);
    std::fill_n(b.attention_mask.begin() + at, rows[r].size(), 1);
    if (type0[r] < rows[r].size()) {
      std::fill_n(b.token_type_ids.begin() + at + static_cast<std::ptrdiff_t>(type0[r]), rows[r].size() - type0[r], 1);
    }
    b.lengths.push_back(static_cast<std::uint32_t>(rows[r].size()));
  }
  return b;
}

}  // namespace

Result<BatchEncoding> WordPieceTokenizer::encode_batch(const std::vector<std::string_view>& texts, const EncodeOptions& options) const {
  if (texts.empty()) return make_error(ErrorCode::kInvalidArgument, "texts: expected at least one text, got an empty batch");
  std::vector<std::vector<std::int32_t>> rows;
  rows.reserve(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    auto r = encode(texts[i], options);
    if (!r.ok()) {
      Error e = r.error();
      e.message += " (texts[" + std::to_string(i) + "])";
      return e;
    }
    rows.push_back(std::move(r).value());
  }
  std::vector<std::size_t> type0(rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) type0[r] = rows[r].size();
  return assemble_rows(rows, type0, options, pad_id_);
}

Result<BatchEncoding> WordPieceTokenizer::encode_pair_batch(const std::vector<std::string_view>& firsts,
                                                            const std::vector<std::string_view>& seconds, const EncodeOptions& options) const {
  if (seconds.empty()) return make_error(ErrorCode::kInvalidArgument, "texts: expected at least one pair, got an empty batch");
  if (firsts.size() != 1 && firsts.size() != seconds.size()) {
    return make_error(ErrorCode::kInvalidArgument, "firsts: expected 1 or " + std::to_string(seconds.size()) + " texts (one per second text), got " +
                                                       std::to_string(firsts.size()));
  }
  const std::size_t specials = options.add_special_tokens ? 3 : 0;
  if (options.max_length < std::max<std::size_t>(specials, 1) || options.max_length > kMaxSequenceLength) {
    return make_error(ErrorCode::kInvalidArgument, "maxLength: expected an integer in [" + std::to_string(std::max<std::size_t>(specials, 1)) + ", " +
                                                       std::to_string(kMaxSequenceLength) + "] for pairs, got " + std::to_string(options.max_length));
  }
  for (const auto* list : {&firsts, &seconds}) {
    for (std::string_view t : *list) {
      if (t.size() > kMaxTextBytes) {
        return make_error(ErrorCode::kLimitExceeded, "text: " + std::to_string(t.size()) + " bytes, the limit is " + std::to_string(kMaxTextBytes));
      }
    }
  }
  const std::size_t budget = options.max_length - specials;
  std::vector<std::int32_t> shared_first;
  if (firsts.size() == 1) tokenize_into(firsts[0], shared_first);
  std::vector<std::vector<std::int32_t>> rows;
  std::vector<std::size_t> type0;
  rows.reserve(seconds.size());
  type0.reserve(seconds.size());
  std::vector<std::int32_t> a;
  std::vector<std::int32_t> b;
  for (std::size_t i = 0; i < seconds.size(); ++i) {
    if (firsts.size() == 1) {
      a = shared_first;
    } else {
      a.clear();
      tokenize_into(firsts[i], a);
    }
    b.clear();
    tokenize_into(seconds[i], b);
    if (a.size() + b.size() > budget) {
      if (!options.truncation) {
        return make_error(ErrorCode::kLimitExceeded, "pair " + std::to_string(i) + ": " + std::to_string(a.size() + b.size() + specials) +
                                                         " tokens, maxLength is " + std::to_string(options.max_length) + " and truncation is off");
      }
      // Hugging Face tokenizers truncate_encodings, LongestFirst (n1 = the shorter, A when equal).
      std::size_t n1 = a.size();
      std::size_t n2 = b.size();
      const bool swap = n1 > n2;
      if (swap) std::swap(n1, n2);
      n2 = n1 > budget ? n1 : std::max(n1, budget - n1);
      if (n1 + n2 > budget) {
        n1 = budget / 2;
        n2 = n1 + budget % 2;
      }
      if (swap) std::swap(n1, n2);
      a.resize(std::min(a.size(), n1));
      b.resize(std::min(b.size(), n2));
    }
    std::vector<std::int32_t> row;
    row.reserve(a.size() + b.size() + specials);
    if (options.add_special_tokens) row.push_back(cls_id_);
    row.insert(row.end(), a.begin(), a.end());
    if (options.add_special_tokens) row.push_back(sep_id_);
    type0.push_back(row.size());
    row.insert(row.end(), b.begin(), b.end());
    if (options.add_special_tokens) row.push_back(sep_id_);
    rows.push_back(std::move(row));
  }
  return assemble_rows(rows, type0, options, pad_id_);
}

}  // namespace ragwasm::embed
