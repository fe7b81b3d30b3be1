// Chunk-agnostic evidence matching and metrics (see evidence.h).
#include "metrics/evidence.h"

#include <algorithm>
#include <cmath>

#include "common/format.h"
#include "common/limits.h"
#include "metrics/answer.h"
#include "text/casefold.h"

namespace ragwasm::metrics {

std::string normalize_for_match(std::string_view s) {
  const std::string f = text::fold(s);
  std::string out;
  out.reserve(f.size());
  bool space = true;  // suppress leading space
  for (unsigned char c : f) {
    const bool sep = c <= 32 || (c < 128 && !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')));
    if (sep) {
      if (!space) out.push_back(' ');
      space = true;
    } else {
      out.push_back(static_cast<char>(c));
      space = false;
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

namespace {
Result<double> containment_checked(std::string_view excerpt, std::string_view chunk) {
  const std::string e = normalize_for_match(excerpt);
  const std::string c = normalize_for_match(chunk);
  if (e.empty()) return 0.0;
  if (c.find(e) != std::string::npos) return 1.0;
  const std::u32string a = to_u32(e), b = to_u32(c);
  if (static_cast<double>(a.size()) * static_cast<double>(b.size()) > kMaxAlignmentCells) {
    return make_error(ErrorCode::kLimitExceeded, "evidence matching: excerpt of " + std::to_string(a.size()) + " x chunk of " +
                                                     std::to_string(b.size()) + " characters exceeds the alignment limit (" +
                                                     number_text(kMaxAlignmentCells) + " cells); use spans or shorter excerpts");
  }
  // Sellers: D[0][j] = 0 (the match may start anywhere in the chunk); answer min_j D[|a|][j].
  std::vector<std::size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  const std::size_t best = *std::min_element(prev.begin(), prev.end());
  return std::max(0.0, 1.0 - static_cast<double>(best) / static_cast<double>(a.size()));
}
}  // namespace

Result<double> evidence_containment(std::string_view excerpt, std::string_view chunk) {
  return containment_checked(excerpt, chunk);
}

Result<std::vector<std::vector<bool>>> match_evidence(const std::vector<RetrievedChunk>& chunks, const std::vector<Evidence>& evidence,
                                                      const EvidenceOptions& options) {
  if (!(options.threshold > 0 && options.threshold <= 1)) {
    return make_error(ErrorCode::kInvalidArgument, "evidence threshold: expected a number in (0, 1], got " + std::to_string(options.threshold));
  }
  if (options.min_overlap < 1) {
    return make_error(ErrorCode::kInvalidArgument, "evidence minOverlap: expected an integer >= 1, got " + std::to_string(options.min_overlap));
  }
  auto has_span = [](const EvidenceSpan& s) { return s.start >= 0 && s.end >= s.start; };
  std::vector<std::vector<bool>> m(chunks.size(), std::vector<bool>(evidence.size(), false));
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    for (std::size_t j = 0; j < evidence.size(); ++j) {
      const auto& cs = chunks[i].span;
      const auto& es = evidence[j].span;
      if (has_span(cs) && has_span(es)) {
        const bool same_doc = cs.doc_id.empty() || es.doc_id.empty() || cs.doc_id == es.doc_id;
        const long overlap = std::min(cs.end, es.end) - std::max(cs.start, es.start);
        m[i][j] = same_doc && overlap >= options.min_overlap;
      } else {
        auto c = containment_checked(evidence[j].text, chunks[i].text);
        if (!c.ok()) return c.error();
        m[i][j] = c.value() >= options.threshold;
      }
    }
  }
  return m;
}

EvidenceScores evidence_scores(const std::vector<std::vector<bool>>& matches, std::size_t num_evidence, int k) {
  EvidenceScores s;
  const std::size_t top = std::min(matches.size(), static_cast<std::size_t>(std::max(k, 0)));
  std::vector<bool> found(num_evidence, false);
  long relevant = 0;
  for (std::size_t i = 0; i < top; ++i) {
    bool any = false;
    for (std::size_t j = 0; j < num_evidence && j < matches[i].size(); ++j) {
      if (matches[i][j]) {
        found[j] = true;
        any = true;
      }
    }
    relevant += any;
  }
  for (std::size_t i = 0; i < matches.size(); ++i) {
    if (std::find(matches[i].begin(), matches[i].end(), true) != matches[i].end()) {
      s.rr = 1.0 / static_cast<double>(i + 1);
      break;
    }
  }
  s.recall = num_evidence ? static_cast<double>(std::count(found.begin(), found.end(), true)) / static_cast<double>(num_evidence) : 0.0;
  s.precision = k > 0 ? static_cast<double>(relevant) / k : 0.0;
  return s;
}

std::vector<double> recall_curve(const std::vector<std::vector<bool>>& matches, std::size_t num_evidence, int max_k) {
  std::vector<double> curve;
  std::vector<bool> found(num_evidence, false);
  std::size_t count = 0;
  for (int k = 1; k <= max_k; ++k) {
    const std::size_t i = static_cast<std::size_t>(k - 1);
    if (i < matches.size()) {
      for (std::size_t j = 0; j < num_evidence && j < matches[i].size(); ++j) {
        if (matches[i][j] && !found[j]) {
          found[j] = true;
          ++count;
        }
      }
    }
    curve.push_back(num_evidence ? static_cast<double>(count) / static_cast<double>(num_evidence) : 0.0);
  }
  return curve;
}

Result<EvidenceReport> evaluate_evidence(const std::vector<EvidenceQuestion>& questions, const EvidenceOptions& options,
                                         const std::vector<int>& ks, int max_k) {
  for (int k : ks) {
    if (k < 1) return make_error(ErrorCode::kInvalidArgument, "evidence k: expected integers >= 1, got " + std::to_string(k));
  }
  if (max_k < 0) return make_error(ErrorCode::kInvalidArgument, "evidence maxK: expected an integer >= 0, got " + std::to_string(max_k));
  EvidenceReport out;
  out.recall.assign(ks.size(), 0.0);
  out.precision.assign(ks.size(), 0.0);
  out.curve.assign(static_cast<std::size_t>(max_k), 0.0);
  for (const auto& q : questions) {
    auto m = match_evidence(q.chunks, q.evidence, options);
    if (!m.ok()) return m.error();
    const auto& matches = m.value();
    EvidenceQuestionScores item;
    for (std::size_t i = 0; i < ks.size(); ++i) {
      const EvidenceScores s = evidence_scores(matches, q.evidence.size(), ks[i]);
      item.recall.push_back(s.recall);
      item.precision.push_back(s.precision);
      out.recall[i] += s.recall;
      out.precision[i] += s.precision;
    }
    for (const auto& row : matches) item.relevant.push_back(std::find(row.begin(), row.end(), true) != row.end());
    item.rr = evidence_scores(matches, q.evidence.size(), 1).rr;
    out.mrr += item.rr;
    const auto curve = recall_curve(matches, q.evidence.size(), max_k);
    for (std::size_t i = 0; i < curve.size(); ++i) out.curve[i] += curve[i];
    out.per_question.push_back(std::move(item));
  }
  const double n = questions.empty() ? 1.0 : static_cast<double>(questions.size());
  for (auto& v : out.curve) v /= n;
  for (auto& v : out.recall) v /= n;
  for (auto& v : out.precision) v /= n;
  out.mrr /= n;
  return out;
}

Result<int> recommend_cutoff(const std::vector<double>& curve, double min_gain, int window) {
  if (curve.empty()) return make_error(ErrorCode::kInvalidArgument, "recall curve: expected at least 1 point, got 0");
  if (window < 1) return make_error(ErrorCode::kInvalidArgument, "cutoff window: expected an integer >= 1, got " + std::to_string(window));
  if (!(min_gain >= 0 && min_gain <= 1)) return make_error(ErrorCode::kInvalidArgument, "cutoff minGain: expected a number in [0, 1], got " + std::to_string(min_gain));
  for (std::size_t k = 1; k <= curve.size(); ++k) {
    const std::size_t next = std::min(curve.size(), k + static_cast<std::size_t>(window));
    if (next == k) return static_cast<int>(curve.size());
    const double gain = (curve[next - 1] - curve[k - 1]) / static_cast<double>(next - k);
    if (gain < min_gain) return static_cast<int>(k);
  }
  return static_cast<int>(curve.size());
}

}  // namespace ragwasm::metrics
