// StaticEmbedder (see static_embedder.h): format parsing with full validation, the word tokenizer,
// and SIF sentence vectors. Sums run in double in word order, so native and WASM agree.
#include "embed/static_embedder.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/container.h"
#include "embed/bert_unicode.h"
#include "text/casefold.h"
#include "text/utf8.h"

namespace ragwasm::embed {
namespace {

constexpr char kMagic[8] = {'R', 'W', 'S', 'T', 'A', 'T', 'I', 'C'};
constexpr std::size_t kHeader = 32;  // version 1
// Version 2 section tags (docs/formats.md).
enum : std::uint32_t { kHeaderTag = 1, kWordsTag = 2, kProbabilitiesTag = 3, kScalesTag = 4, kPrincipalTag = 5, kVectorsTag = 6 };

std::uint32_t read_u32(const char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
float read_f32(const char* p) {
  float v;
  std::memcpy(&v, p, 4);
  return v;
}
void put_u32(std::string& out, std::uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); }
void put_f32(std::string& out, float v) { out.append(reinterpret_cast<const char*>(&v), 4); }
std::size_t pad_to(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

Error corrupt(const std::string& what) { return make_error(ErrorCode::kCorruptIndex, "static model: " + what); }

std::uint64_t hash_word(std::string_view s) { return fnv1a64(s); }

}  // namespace

std::string write_static_model(const StaticModelParts& p) {
  std::string header;
  put_u32(header, p.dims);
  put_u32(header, static_cast<std::uint32_t>(p.words.size()));
  put_f32(header, p.sif_a);
  std::string words;
  for (const auto& w : p.words) {
    words += w;
    words += '\n';
  }
  // Floats are stored little-endian as in memory (every target we build for is little-endian).
  auto floats = [](const std::vector<float>& v) { return std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * 4); };
  const std::vector<container::Section> sections = {
      {kHeaderTag, header},
      {kWordsTag, words},
      {kProbabilitiesTag, floats(p.probabilities)},
      {kScalesTag, floats(p.scales)},
      {kPrincipalTag, floats(p.principal)},
      {kVectorsTag, std::string_view(reinterpret_cast<const char*>(p.vectors.data()), p.vectors.size())},
  };
  return container::pack(std::string_view(kMagic, 8), kStaticModelVersion, sections);
}

namespace {

// The parts of a model file, as views into it (both versions), before validation.
struct RawModel {
  std::size_t dims = 0;
  std::size_t n = 0;
  float a = 0;
  std::string_view words;
  std::string_view probabilities;  // f32[n]
  std::string_view scales;         // f32[n]
  std::string_view principal;      // f32[dims]
  std::string_view vectors;        // i8[n * dims]
};

Status check_counts(std::size_t dims, std::size_t n, float a) {
  if (dims == 0 || dims > kMaxStaticDims) return corrupt("dims " + std::to_string(dims) + " out of [1, " + std::to_string(kMaxStaticDims) + "]");
  if (n == 0 || n > kMaxStaticWords) return corrupt("word count " + std::to_string(n) + " out of [1, " + std::to_string(kMaxStaticWords) + "]");
  if (!(a > 0.0f) || !std::isfinite(a)) return corrupt("sif_a must be a positive number");
  return Status::success();
}

// Version 1: the layout in static_embedder.h (FNV-1a seal).
Result<RawModel> read_v1(std::string_view b) {
  if (b.size() < kHeader + 8) return corrupt("expected at least 40 bytes, got " + std::to_string(b.size()));
  std::uint64_t stored;
  std::memcpy(&stored, b.data() + b.size() - 8, 8);
  if (fnv1a64(b.substr(0, b.size() - 8)) != stored) return corrupt("checksum mismatch (file damaged or truncated)");
  RawModel m;
  m.dims = read_u32(b.data() + 12);
  m.n = read_u32(b.data() + 16);
  m.a = read_f32(b.data() + 20);
  const std::size_t words_bytes = read_u32(b.data() + 24);
  if (Status s = check_counts(m.dims, m.n, m.a); !s.ok()) return s.error();
  // All sizes are bounded above (n <= 4M, dims <= 4096), so this arithmetic cannot overflow 64 bits;
  // it is done in 64 bits because n * dims (up to 2^34) wraps a 32-bit size_t (WASM), which would let
  // a crafted header match the file size with a too-small vector table.
  const std::size_t body = b.size() - 8;
  std::size_t pos = kHeader;
  if (words_bytes > body - pos) return corrupt("words section longer than the file");
  m.words = b.substr(pos, words_bytes);
  pos = pad_to(pos + words_bytes, 4);
  const std::uint64_t expected = (std::uint64_t{pos} + 4 * (2 * std::uint64_t{m.n} + m.dims) + std::uint64_t{m.n} * m.dims + 7) / 8 * 8;
  if (expected != body) {
    return corrupt("expected " + std::to_string(expected + 8) + " bytes for " + std::to_string(m.n) + " words x " + std::to_string(m.dims) +
                   " dims, got " + std::to_string(b.size()));
  }
  m.probabilities = b.substr(pos, 4 * m.n);
  m.scales = b.substr(pos + 4 * m.n, 4 * m.n);
  m.principal = b.substr(pos + 8 * m.n, 4 * m.dims);
  m.vectors = b.substr(pos + 8 * m.n + 4 * m.dims, m.n * m.dims);
  return m;
}

// Version 2: the one container (src/common/container.h); every section length must equal what the
// header section's counts give.
Result<RawModel> read_v2(std::string_view b) {
  container::Format format;
  format.magic = std::string_view(kMagic, 8);
  format.what = "static model";
  format.min_version = 1;  // version 1 has its own layout, routed to read_v1 before this
  format.max_version = kStaticModelVersion;
  auto u = container::unpack(b, format);
  if (!u.ok()) return u.error();
  const container::Unpacked& c = u.value();
  std::string_view sec[kVectorsTag + 1];
  for (std::uint32_t tag = kHeaderTag; tag <= kVectorsTag; ++tag) {
    const container::Section* s = c.find(tag);
    if (s == nullptr) return corrupt("section " + std::to_string(tag) + " is missing");
    sec[tag] = s->bytes;
  }
  if (sec[kHeaderTag].size() != 12) return corrupt("header section has " + std::to_string(sec[kHeaderTag].size()) + " bytes, expected 12");
  RawModel m;
  m.dims = read_u32(sec[kHeaderTag].data());
  m.n = read_u32(sec[kHeaderTag].data() + 4);
  m.a = read_f32(sec[kHeaderTag].data() + 8);
  if (Status s = check_counts(m.dims, m.n, m.a); !s.ok()) return s.error();
  auto sized = [&](std::uint32_t tag, std::uint64_t want, const char* what) -> Status {
    if (sec[tag].size() != want) {
      return corrupt(std::string(what) + " section has " + std::to_string(sec[tag].size()) + " bytes, expected " + std::to_string(want) + " for " +
                     std::to_string(m.n) + " words x " + std::to_string(m.dims) + " dims");
    }
    return Status::success();
  };
  for (Status s : {sized(kProbabilitiesTag, 4 * std::uint64_t{m.n}, "probabilities"), sized(kScalesTag, 4 * std::uint64_t{m.n}, "scales"),
                   sized(kPrincipalTag, 4 * std::uint64_t{m.dims}, "principal component"),
                   sized(kVectorsTag, std::uint64_t{m.n} * m.dims, "vectors")}) {
    if (!s.ok()) return s.error();
  }
  m.words = sec[kWordsTag];
  m.probabilities = sec[kProbabilitiesTag];
  m.scales = sec[kScalesTag];
  m.principal = sec[kPrincipalTag];
  m.vectors = sec[kVectorsTag];
  return m;
}

}  // namespace

Result<StaticEmbedder> StaticEmbedder::load(std::string_view b) {
  std::string_view magic;
  std::uint32_t version = 0;
  if (!container::peek(b, &magic, &version)) return corrupt("expected at least 40 bytes, got " + std::to_string(b.size()));
  if (magic != std::string_view(kMagic, 8)) return corrupt("bad magic (not a RWSTATIC file)");
  auto raw = version == 1 ? read_v1(b) : read_v2(b);
  if (!raw.ok()) return raw.error();
  const RawModel& m = raw.value();
  const std::size_t dims = m.dims;
  const std::size_t n = m.n;
  const float a = m.a;
  if (!text::is_valid_utf8(m.words)) return corrupt("words are not valid UTF-8");

  StaticEmbedder e;
  e.dims_ = dims;
  e.sif_a_ = a;
  e.words_.reserve(n);
  std::size_t start = 0;
  const std::string_view words = m.words;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] != '\n') continue;
    if (e.words_.size() == n) return corrupt("more words than the header says");
    const std::string_view word = words.substr(start, i - start);
    // A word list written with CRLF line ends would keep "\r" on every word, so no text token would
    // ever match and every text would embed to zero: refused rather than loaded as garbage (#30 F-5).
    if (word.find('\r') != std::string_view::npos) {
      return corrupt("word " + std::to_string(e.words_.size()) + " holds a carriage return (a word list with CRLF line ends? words end in \\n only)");
    }
    e.words_.emplace_back(word);
    start = i + 1;
  }
  if (e.words_.size() != n || start != words.size()) return corrupt("word list does not hold " + std::to_string(n) + " newline-terminated words");
  e.weights_.resize(n);
  e.scales_.resize(n);
  e.pc_.resize(dims);
  const char* p = m.probabilities.data();
  for (std::size_t i = 0; i < n; ++i) {
    const float prob = read_f32(p + 4 * i);
    if (!(prob >= 0.0f && prob <= 1.0f)) return corrupt("word probability out of [0, 1] at word " + std::to_string(i));
    e.weights_[i] = a / (a + prob);
  }
  p = m.scales.data();
  for (std::size_t i = 0; i < n; ++i) {
    e.scales_[i] = read_f32(p + 4 * i);
    if (!std::isfinite(e.scales_[i])) return corrupt("non-finite scale at word " + std::to_string(i));
  }
  p = m.principal.data();
  for (std::size_t d = 0; d < dims; ++d) {
    e.pc_[d] = read_f32(p + 4 * d);
    if (!std::isfinite(e.pc_[d])) return corrupt("non-finite principal component");
  }
  e.vectors_.resize(n * dims);
  std::memcpy(e.vectors_.data(), m.vectors.data(), n * dims);

  std::size_t cap = 16;
  while (cap < n * 2) cap <<= 1;
  e.slots_.assign(cap, 0);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t s = static_cast<std::size_t>(hash_word(e.words_[i])) & (cap - 1);
    bool dup = false;
    while (e.slots_[s] != 0) {
      if (e.words_[e.slots_[s] - 1] == e.words_[i]) {
        dup = true;  // a repeated word: the first (most frequent) one wins
        break;
      }
      s = (s + 1) & (cap - 1);
    }
    if (!dup) e.slots_[s] = static_cast<std::uint32_t>(i + 1);
  }
  return e;
}

std::int32_t StaticEmbedder::find(std::string_view word) const {
  const std::size_t mask = slots_.size() - 1;
  std::size_t s = static_cast<std::size_t>(hash_word(word)) & mask;
  while (slots_[s] != 0) {
    if (words_[slots_[s] - 1] == word) return static_cast<std::int32_t>(slots_[s] - 1);
    s = (s + 1) & mask;
  }
  return -1;
}

std::vector<float> StaticEmbedder::vector(std::size_t i) const {
  std::vector<float> v(dims_);
  if (i >= words_.size()) return v;
  for (std::size_t d = 0; d < dims_; ++d) v[d] = scales_[i] * static_cast<float>(vectors_[i * dims_ + d]);
  return v;
}

std::vector<std::string> StaticEmbedder::words(std::string_view input) const {
  text::FoldOptions fo;
  fo.lowercase = true;
  fo.fold_accents = false;
  const std::string lower = text::fold(input, fo);
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 0; i < lower.size();) {
    std::size_t len = 1;
    const char32_t cp = text::decode_utf8(lower, i, &len);
    if (unicode::is_white_space(cp) || unicode::is_punctuation(cp) || unicode::is_control(cp)) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.append(lower, i, len);
    }
    i += len;
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::vector<std::int32_t> StaticEmbedder::word_ids(std::string_view text, std::size_t max_tokens) const {
  std::vector<std::int32_t> ids;
  for (const std::string& w : words(text)) {
    if (ids.size() >= max_tokens) break;
    const std::int32_t id = find(w);
    if (id >= 0) ids.push_back(id);
  }
  return ids;
}

std::vector<float> StaticEmbedder::embed(std::string_view text) const {
  std::vector<double> acc(dims_, 0.0);
  bool any = false;
  for (const std::string& w : words(text)) {
    const std::int32_t id = find(w);
    if (id < 0) continue;
    any = true;
    const std::size_t i = static_cast<std::size_t>(id);
    const double f = static_cast<double>(weights_[i]) * scales_[i];
    const std::int8_t* q = vectors_.data() + i * dims_;
    for (std::size_t d = 0; d < dims_; ++d) acc[d] += f * q[d];
  }
  std::vector<float> out(dims_, 0.0f);
  if (!any) return out;
  double dot = 0;
  for (std::size_t d = 0; d < dims_; ++d) dot += acc[d] * pc_[d];
  double ss = 0;
  for (std::size_t d = 0; d < dims_; ++d) {
    acc[d] -= dot * pc_[d];
    ss += acc[d] * acc[d];
  }
  if (ss <= 0) return out;
  const double inv = 1.0 / std::sqrt(ss);
  for (std::size_t d = 0; d < dims_; ++d) out[d] = static_cast<float>(acc[d] * inv);
  return out;
}

std::vector<float> StaticEmbedder::embed_batch(const std::vector<std::string_view>& texts) const {
  std::vector<float> out;
  out.reserve(texts.size() * dims_);
  for (std::string_view t : texts) {
    const std::vector<float> v = embed(t);
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

Result<BatchEncoding> StaticEmbedder::encode_word_ids(const std::vector<std::string_view>& texts, std::size_t max_tokens, Padding padding) const {
  if (texts.empty()) return make_error(ErrorCode::kInvalidArgument, "texts: expected at least one text, got an empty batch");
  if (max_tokens < 1 || max_tokens > kMaxSequenceLength) {
    return make_error(ErrorCode::kInvalidArgument, "maxLength: expected an integer in [1, 65536]");
  }
  std::vector<std::vector<std::int32_t>> rows;
  rows.reserve(texts.size());
  std::size_t longest = 1;  // at least one column: ORT rejects zero-sized dimensions in some kernels
  for (std::string_view t : texts) {
    rows.push_back(word_ids(t, max_tokens));
    longest = std::max(longest, rows.back().size());
  }
  BatchEncoding b;
  b.rows = rows.size();
  b.cols = padding == Padding::kMaxLength ? max_tokens : longest;
  if (b.rows > kMaxBatchTokens / b.cols) return make_error(ErrorCode::kLimitExceeded, "texts: padded batch too large");
  b.input_ids.assign(b.rows * b.cols, 0);
  b.attention_mask.assign(b.rows * b.cols, 0);
  b.token_type_ids.assign(b.rows * b.cols, 0);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t k = 0; k < rows[r].size(); ++k) {
      b.input_ids[r * b.cols + k] = rows[r][k];
      b.attention_mask[r * b.cols + k] = 1;
    }
    b.lengths.push_back(static_cast<std::uint32_t>(rows[r].size()));
  }
  return b;
}

}  // namespace ragwasm::embed
