// Sentence packing (whole sentences from text::SentenceSplitter up to chunk_size, with sentence-count
// overlap; in strict mode a sentence longer than chunk_size is cut by strict recursive splitting) and semantic chunking (cosine-distance breakpoints between neighbouring sentences, as in
// LangChain Python's SemanticChunker, plus minimum and maximum chunk sizes).
#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include "chunk/chunk.h"
#include "text/sentences.h"

namespace ragwasm::chunk {

std::vector<ChunkSpan> split_sentences_packed(std::string_view t, const ChunkOptions& o) {
  std::vector<ChunkSpan> out;
  text::SentenceOptions so;
  so.newline_breaks = o.newline_breaks;
  auto splitter = text::SentenceSplitter::create(so);
  if (!splitter.ok()) return out;  // cannot happen: no abbreviations given
  const std::vector<text::Span> s = splitter.value().split(t);
  const std::size_t n = s.size();
  // Strict mode: a sentence over chunk_size (a text without sentence breaks is one sentence) is cut
  // by strict recursive splitting, default separators, no overlap, so every chunk fits (issue #19).
  ChunkOptions cut = o;
  cut.strategy = Strategy::kRecursive;
  cut.chunk_overlap = 0;
  cut.strict = true;
  std::size_t i = 0;
  while (i < n) {
    std::size_t j = i;
    std::size_t len = measure(t.substr(s[i].start, s[i].end - s[i].start), o.unit);
    while (j + 1 < n) {
      // Additive: the gap between sentences is white space (a token run never spans it).
      const std::size_t add = measure(t.substr(s[j].end, s[j + 1].end - s[j].end), o.unit);
      if (len + add > o.chunk_size) break;
      len += add;
      ++j;
    }
    if (o.strict && j == i && len > o.chunk_size) {
      const std::string_view sentence = t.substr(s[i].start, s[i].end - s[i].start);
      for (const ChunkSpan& c : split_recursive(sentence, cut, default_separators())) {
        out.push_back(ChunkSpan{s[i].start + c.start, s[i].start + c.end, -1});
      }
    } else {
      out.push_back(ChunkSpan{s[i].start, s[j].end, -1});
    }
    if (j + 1 >= n) break;
    std::size_t next = j + 1 > o.overlap_sentences ? j + 1 - o.overlap_sentences : 0;
    if (next <= i) next = i + 1;
    i = next;
  }
  return out;
}

std::vector<double> cosine_distances(const float* e, std::size_t n, std::size_t dim) {
  std::vector<double> out;
  if (n < 2) return out;
  out.reserve(n - 1);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const float* a = e + i * dim;
    const float* b = e + (i + 1) * dim;
    double dot = 0, na = 0, nb = 0;
    for (std::size_t k = 0; k < dim; ++k) {
      dot += static_cast<double>(a[k]) * b[k];
      na += static_cast<double>(a[k]) * a[k];
      nb += static_cast<double>(b[k]) * b[k];
    }
    if (na == 0 || nb == 0 || !std::isfinite(dot) || !std::isfinite(na) || !std::isfinite(nb)) {
      out.push_back(1.0);
    } else {
      out.push_back(1.0 - dot / (std::sqrt(na) * std::sqrt(nb)));
    }
  }
  return out;
}

namespace {

// numpy.percentile(x, p) with the default "linear" method.
double percentile(std::vector<double> x, double p) {
  if (x.empty()) return 0;
  std::sort(x.begin(), x.end());
  const double pos = (static_cast<double>(x.size()) - 1) * p / 100.0;
  const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, x.size() - 1);
  return x[lo] + (x[hi] - x[lo]) * (pos - static_cast<double>(lo));
}

// numpy.gradient(x): one-sided differences at the ends, central differences inside.
std::vector<double> gradient(const std::vector<double>& x) {
  std::vector<double> g(x.size(), 0.0);
  if (x.size() < 2) return g;
  g[0] = x[1] - x[0];
  g[x.size() - 1] = x[x.size() - 1] - x[x.size() - 2];
  for (std::size_t i = 1; i + 1 < x.size(); ++i) g[i] = (x[i + 1] - x[i - 1]) / 2.0;
  return g;
}

double default_amount(Breakpoint m) {
  switch (m) {
    case Breakpoint::kStandardDeviation: return 3.0;
    case Breakpoint::kInterquartile: return 1.5;
    default: return 95.0;
  }
}

}  // namespace

double breakpoint_threshold(const std::vector<double>& d, Breakpoint method, double amount) {
  if (amount < 0) amount = default_amount(method);
  if (d.empty()) return 0;
  switch (method) {
    case Breakpoint::kPercentile:
      return percentile(d, amount);
    case Breakpoint::kGradient:
      return percentile(gradient(d), amount);
    case Breakpoint::kStandardDeviation: {
      double sum = 0;
      for (double v : d) sum += v;
      const double mean = sum / static_cast<double>(d.size());
      double sq = 0;
      for (double v : d) sq += (v - mean) * (v - mean);
      return mean + amount * std::sqrt(sq / static_cast<double>(d.size()));
    }
    case Breakpoint::kInterquartile: {
      double sum = 0;
      for (double v : d) sum += v;
      const double mean = sum / static_cast<double>(d.size());
      return mean + amount * (percentile(d, 75) - percentile(d, 25));
    }
  }
  return 0;
}

Result<std::vector<ChunkSpan>> semantic_chunks(std::string_view t, const std::vector<ChunkSpan>& units,
                                               const std::vector<double>& distances,
                                               const SemanticOptions& o) {
  std::vector<ChunkSpan> out;
  if (units.empty()) return out;
  if (distances.size() + 1 != units.size()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "distances: expected " + std::to_string(units.size() - 1) + " values (sentences - 1), got " +
                          std::to_string(distances.size()));
  }
  if (o.max_chunk_size > 0 && o.min_chunk_size > o.max_chunk_size) {
    return make_error(ErrorCode::kInvalidArgument, "minChunkSize: expected <= maxChunkSize (" +
                                                       std::to_string(o.max_chunk_size) + "), got " +
                                                       std::to_string(o.min_chunk_size));
  }
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (units[i].start > units[i].end || units[i].end > t.size() || (i > 0 && units[i].start < units[i - 1].end)) {
      return make_error(ErrorCode::kInvalidArgument, "sentences: expected ordered, non-overlapping spans inside the text");
    }
  }
  const double threshold = breakpoint_threshold(distances, o.method, o.amount);
  const std::vector<double> signal = o.method == Breakpoint::kGradient ? gradient(distances) : distances;
  std::size_t first = 0;
  std::size_t len = measure(t.substr(units[0].start, units[0].end - units[0].start), o.unit);
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (i + 1 == units.size()) {
      out.push_back(ChunkSpan{units[first].start, units[i].end, -1});
      break;
    }
    const std::size_t add = measure(t.substr(units[i].end, units[i + 1].end - units[i].end), o.unit);
    bool cut = signal[i] > threshold && len >= o.min_chunk_size;
    if (o.max_chunk_size > 0 && len + add > o.max_chunk_size) cut = true;  // max wins over min
    if (cut) {
      out.push_back(ChunkSpan{units[first].start, units[i].end, -1});
      first = i + 1;
      len = measure(t.substr(units[first].start, units[first].end - units[first].start), o.unit);
    } else {
      len += add;
    }
  }
  return out;
}

}  // namespace ragwasm::chunk
