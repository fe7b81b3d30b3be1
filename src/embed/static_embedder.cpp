// StaticEmbedder (see static_embedder.h): format parsing with full validation, the word tokenizer,
// and SIF sentence vectors. Sums run in double in word order, so native and WASM agree.
#include "embed/static_embedder.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "embed/bert_unicode.h"
#include "text/casefold.h"
#include "text/utf8.h"

namespace ragwasm::embed {
namespace {

constexpr char kMagic[8] = {'R', 'W', 'S', 'T', 'A', 'T', 'I', 'C'};
constexpr std::size_t kHeader = 32;

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
  std::string words;
  for (const auto& w : p.words) {
    words += w;
    words += '\n';
  }
  std::string out(kMagic, 8);
  put_u32(out, kStaticModelVersion);
  put_u32(out, p.dims);
  put_u32(out, static_cast<std::uint32_t>(p.words.size()));
  put_f32(out, p.sif_a);
  put_u32(out, static_cast<std::uint32_t>(words.size()));
  put_u32(out, 0);
  out += words;
  out.resize(pad_to(out.size(), 4), '\0');
  for (float v : p.probabilities) put_f32(out, v);
  for (float v : p.scales) put_f32(out, v);
  for (float v : p.principal) put_f32(out, v);
  out.append(reinterpret_cast<const char*>(p.vectors.data()), p.vectors.size());
  out.resize(pad_to(out.size(), 8), '\0');
  const std::uint64_t h = fnv1a64(out);
  out.append(reinterpret_cast<const char*>(&h), 8);
  return out;
}

Result<StaticEmbedder> StaticEmbedder::load(std::string_view b) {
  if (b.size() < kHeader + 8) return corrupt("expected at least 40 bytes, got " + std::to_string(b.size()));
  if (std::memcmp(b.data(), kMagic, 8) != 0) return corrupt("bad magic (not a RWSTATIC file)");
  const std::uint32_t version = read_u32(b.data() + 8);
  // A version field far outside any version we could have written is damage, not a newer format.
  if (version == 0 || version > 0xFFFF) return corrupt("implausible format version " + std::to_string(version));
  if (version != kStaticModelVersion) {
    return make_error(ErrorCode::kUnsupportedVersion, "static model: format version " + std::to_string(version) + ", this build reads version " +
                                                          std::to_string(kStaticModelVersion));
  }
  std::uint64_t stored;
  std::memcpy(&stored, b.data() + b.size() - 8, 8);
  if (fnv1a64(b.substr(0, b.size() - 8)) != stored) return corrupt("checksum mismatch (file damaged or truncated)");
  const std::size_t dims = read_u32(b.data() + 12);
  const std::size_t n = read_u32(b.data() + 16);
  const float a = read_f32(b.data() + 20);
  const std::size_t words_bytes = read_u32(b.data() + 24);
  if (dims == 0 || dims > kMaxStaticDims) return corrupt("dims " + std::to_string(dims) + " out of [1, " + std::to_string(kMaxStaticDims) + "]");
  if (n == 0 || n > kMaxStaticWords) return corrupt("word count " + std::to_string(n) + " out of [1, " + std::to_string(kMaxStaticWords) + "]");
  if (!(a > 0.0f) || !std::isfinite(a)) return corrupt("sif_a must be a positive number");
  // All sizes are bounded above (n <= 4M, dims <= 4096), so this arithmetic cannot overflow 64 bits;
  // it is done in 64 bits because n * dims (up to 2^34) wraps a 32-bit size_t (WASM), which would let
  // a crafted header match the file size with a too-small vector table.
  const std::size_t body = b.size() - 8;
  std::size_t pos = kHeader;
  if (words_bytes > body - pos) return corrupt("words section longer than the file");
  const std::string_view words = b.substr(pos, words_bytes);
  pos = pad_to(pos + words_bytes, 4);
  const std::uint64_t expected = (std::uint64_t{pos} + 4 * (2 * std::uint64_t{n} + dims) + std::uint64_t{n} * dims + 7) / 8 * 8;
  if (expected != body) return corrupt("expected " + std::to_string(expected + 8) + " bytes for " + std::to_string(n) + " words x " + std::to_string(dims) + " dims, got " + std::to_string(b.size()));
  if (!text::is_valid_utf8(words)) return corrupt("words are not valid UTF-8");

  StaticEmbedder e;
  e.dims_ = dims;
  e.sif_a_ = a;
  e.words_.reserve(n);
  std::size_t start = 0;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] != '\n') continue;
    if (e.words_.size() == n) return corrupt("more words than the header says");
    e.words_.emplace_back(words.substr(start, i - start));
    start = i + 1;
  }
  if (e.words_.size() != n || start != words.size()) return corrupt("word list does not hold " + std::to_string(n) + " newline-terminated words");
  const char* p = b.data() + pos;
  e.weights_.resize(n);
  e.scales_.resize(n);
  e.pc_.resize(dims);
  for (std::size_t i = 0; i < n; ++i) {
    const float prob = read_f32(p + 4 * i);
    if (!(prob >= 0.0f && prob <= 1.0f)) return corrupt("word probability out of [0, 1] at word " + std::to_string(i));
    e.weights_[i] = a / (a + prob);
  }
  p += 4 * n;
  for (std::size_t i = 0; i < n; ++i) {
    e.scales_[i] = read_f32(p + 4 * i);
    if (!std::isfinite(e.scales_[i])) return corrupt("non-finite scale at word " + std::to_string(i));
  }
  p += 4 * n;
  for (std::size_t d = 0; d < dims; ++d) {
    e.pc_[d] = read_f32(p + 4 * d);
    if (!std::isfinite(e.pc_[d])) return corrupt("non-finite principal component");
  }
  p += 4 * dims;
  e.vectors_.resize(n * dims);
  std::memcpy(e.vectors_.data(), p, n * dims);

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
