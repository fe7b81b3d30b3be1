// WordNeighbours (see word_neighbours.h): exact cosine nearest words over int8 vectors.
#include "embed/word_neighbours.h"

#include <algorithm>
#include <cmath>

#include "common/ranking.h"

namespace ragwasm::embed {

WordNeighbours WordNeighbours::from_model(const StaticEmbedder& model, std::size_t max_words) {
  WordNeighbours n;
  const std::size_t count = max_words == 0 ? model.vocab_size() : std::min(max_words, model.vocab_size());
  n.dims_ = model.dims();
  n.words_.reserve(count);
  n.vectors_.resize(count * n.dims_);
  n.norms2_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    n.words_.push_back(model.word(i));
    n.index_.emplace(n.words_.back(), static_cast<std::uint32_t>(i));  // a repeated word: the first rank wins
    const std::int8_t* q = model.quantized(i);
    std::copy(q, q + n.dims_, n.vectors_.begin() + static_cast<std::ptrdiff_t>(i * n.dims_));
    std::int64_t s = 0;
    for (std::size_t d = 0; d < n.dims_; ++d) s += static_cast<std::int64_t>(q[d]) * q[d];
    n.norms2_[i] = s;
  }
  return n;
}

Result<WordNeighbours> WordNeighbours::load(std::string_view bytes, std::size_t max_words) {
  auto m = StaticEmbedder::load(bytes);
  if (!m.ok()) return m.error();
  return from_model(m.value(), max_words);
}

std::int32_t WordNeighbours::find(std::string_view word) const {
  auto it = index_.find(std::string(word));
  return it == index_.end() ? -1 : static_cast<std::int32_t>(it->second);
}

namespace {

// Integer dot product of two int8 rows: |sum| <= dims * 128^2 <= 4096 * 16384 = 2^26 (kMaxStaticDims),
// so int32 is exact.
std::int32_t dot(const std::int8_t* a, const std::int8_t* b, std::size_t dims) {
  std::int32_t s = 0;
  for (std::size_t d = 0; d < dims; ++d) s += static_cast<std::int32_t>(a[d]) * static_cast<std::int32_t>(b[d]);
  return s;
}

double cosine(std::int32_t dot_ab, std::int64_t na2, std::int64_t nb2) {
  if (na2 == 0 || nb2 == 0) return 0.0;
  // na2 * nb2 <= (2^26)^2 = 2^52 < 2^53: exact in double.
  return static_cast<double>(dot_ab) / std::sqrt(static_cast<double>(na2) * static_cast<double>(nb2));
}

}  // namespace

double WordNeighbours::similarity(std::size_t i, std::size_t j) const {
  if (i >= words_.size() || j >= words_.size()) return 0.0;
  return cosine(dot(vectors_.data() + i * dims_, vectors_.data() + j * dims_, dims_), norms2_[i], norms2_[j]);
}

std::vector<WordNeighbour> WordNeighbours::scan(std::size_t i, double min_similarity, std::size_t limit) const {
  std::vector<WordNeighbour> out;
  if (norms2_[i] == 0 || limit == 0) return out;
  const std::int8_t* a = vectors_.data() + i * dims_;
  for (std::size_t j = 0; j < words_.size(); ++j) {
    if (j == i || norms2_[j] == 0) continue;
    const double s = cosine(dot(a, vectors_.data() + j * dims_, dims_), norms2_[i], norms2_[j]);
    if (s >= min_similarity) out.push_back(WordNeighbour{static_cast<std::uint32_t>(j), s});
  }
  std::sort(out.begin(), out.end(), [](const WordNeighbour& x, const WordNeighbour& y) { return ranks_before(x.similarity, x.id, y.similarity, y.id); });
  if (out.size() > limit) out.resize(limit);
  return out;
}

std::vector<WordNeighbour> WordNeighbours::similar(std::string_view word, double min_similarity, std::size_t limit) const {
  const std::int32_t w = find(word);
  if (w < 0 || limit == 0) return {};
  const auto i = static_cast<std::uint32_t>(w);
  if (!(min_similarity >= kMemoFloor) || limit > kMemoLimit) return scan(i, min_similarity, limit);
  auto it = memo_.find(i);
  if (it == memo_.end()) {
    if (memo_.size() >= kMemoWords) memo_.clear();
    it = memo_.emplace(i, scan(i, kMemoFloor, kMemoLimit)).first;
  }
  // The memo holds the first kMemoLimit words at the lower floor, in the final order: its prefix above
  // min_similarity, cut at limit, is what a scan would return.
  std::vector<WordNeighbour> out;
  for (const auto& n : it->second) {
    if (out.size() == limit || n.similarity < min_similarity) break;
    out.push_back(n);
  }
  return out;
}

}  // namespace ragwasm::embed
