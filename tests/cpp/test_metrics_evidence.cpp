// src/metrics/evidence: chunk-agnostic evidence matching, recall curves and the cutoff recommender;
// on SQuAD dev with two test-local chunkings (overlapping windows, sentences).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "metrics/evidence.h"
#include "shared_data.h"

using namespace ragwasm::metrics;
using ragwasm::ErrorCode;

TEST_CASE("an excerpt is contained in a chunk up to case whitespace and punctuation", "[unit]") {
  REQUIRE(normalize_for_match("  The QUICK,  brown\n fox! ") == "the quick brown fox");
  REQUIRE(evidence_containment("quick brown fox", "Yes: the Quick -- Brown  fox jumped.").value() == 1.0);
  // one deleted letter in the chunk ("brwn"): 1 edit over |"quick brown fox"| = 15 characters
  REQUIRE(evidence_containment("quick brown fox", "a quick brwn fox ran").value() == Approx(1.0 - 1.0 / 15).margin(1e-12));
  // the chunk holds only "quick brown" of "quick brown fox jumps" (21 chars): 10 missing -> 11/21
  REQUIRE(evidence_containment("quick brown fox jumps", "xx quick brown").value() == Approx(11.0 / 21).margin(1e-12));
  REQUIRE(evidence_containment("", "anything").value() == 0.0);
}

TEST_CASE("#19 evidence containment above the alignment limit is LIMIT_EXCEEDED and the next call still works", "[unit]") {
  // 20,001 x 10,000 code points = 2.0e8 cells > kMaxAlignmentCells (1e8); no substring match, so the
  // alignment would run: refused before it starts.
  const std::string excerpt(20001, 'a');
  std::string chunk(10000, 'b');
  auto r = evidence_containment(excerpt, chunk);
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.error().code == ragwasm::ErrorCode::kLimitExceeded);
  REQUIRE(evidence_containment("quick brown fox", "a quick brwn fox ran").value() == Approx(1.0 - 1.0 / 15).margin(1e-12));
}

TEST_CASE("span overlap decides relevance when offsets are known", "[unit]") {
  std::vector<RetrievedChunk> chunks = {{"text a", {"d1", 0, 100}}, {"text b", {"d1", 100, 200}}, {"text c", {"d2", 150, 250}}};
  std::vector<Evidence> ev = {{"unused", {"d1", 150, 180}}};
  auto m = match_evidence(chunks, ev, EvidenceOptions{});
  REQUIRE(m.ok());
  REQUIRE(m.value()[0][0] == false);  // [0,100) vs [150,180): no overlap
  REQUIRE(m.value()[1][0] == true);   // 30 characters overlap
  REQUIRE(m.value()[2][0] == false);  // other document
  EvidenceOptions bad;
  bad.threshold = 0;
  REQUIRE(match_evidence(chunks, ev, bad).error().code == ErrorCode::kInvalidArgument);
}

TEST_CASE("evidence recall precision and reciprocal rank by hand", "[unit]") {
  // 4 chunks, 2 evidences: rank 2 matches e0, rank 4 matches e1
  std::vector<std::vector<bool>> m = {{false, false}, {true, false}, {false, false}, {false, true}};
  auto s3 = evidence_scores(m, 2, 3);
  REQUIRE(s3.recall == Approx(1.0 / 2).margin(1e-12));     // e0 found in top 3
  REQUIRE(s3.precision == Approx(1.0 / 3).margin(1e-12));  // 1 relevant chunk of 3
  REQUIRE(s3.rr == Approx(1.0 / 2).margin(1e-12));
  REQUIRE(recall_curve(m, 2, 5) == std::vector<double>{0, 0.5, 0.5, 1, 1});
}

TEST_CASE("evidence evaluation averages per-question scores and curves over questions", "[unit]") {
  // q1: rank 1 misses and rank 2 holds the only evidence; q2: rank 1 holds one of two evidences
  EvidenceQuestion q1{{{"alpha beta", {}}}, {{"nothing here", {}}, {"so alpha beta it is", {}}}};
  EvidenceQuestion q2{{{"gamma", {}}, {"delta", {}}}, {{"gamma ray", {}}, {"epsilon", {}}}};
  auto r = evaluate_evidence({q1, q2}, EvidenceOptions{}, {1, 2}, 3);
  REQUIRE(r.ok());
  const EvidenceReport& rep = r.value();
  REQUIRE(rep.per_question.size() == 2);
  REQUIRE(rep.per_question[0].recall == std::vector<double>{0, 1});
  REQUIRE(rep.per_question[0].relevant == std::vector<bool>{false, true});
  REQUIRE(rep.per_question[1].recall == std::vector<double>{0.5, 0.5});
  REQUIRE(rep.per_question[1].precision == std::vector<double>{1, 0.5});
  // means, exact in binary: recall@1 (0 + 0.5) / 2, recall@2 (1 + 0.5) / 2, MRR (1/2 + 1) / 2
  REQUIRE(rep.recall == std::vector<double>{0.25, 0.75});
  REQUIRE(rep.precision == std::vector<double>{0.5, 0.5});
  REQUIRE(rep.mrr == 0.75);
  REQUIRE(rep.curve == std::vector<double>{0.25, 0.75, 0.75});
}

TEST_CASE("evidence evaluation of no questions gives zeros and rejects a cutoff below 1", "[unit]") {
  auto empty = evaluate_evidence({}, EvidenceOptions{}, {5}, 2);
  REQUIRE(empty.ok());
  REQUIRE(empty.value().recall == std::vector<double>{0});
  REQUIRE(empty.value().curve == std::vector<double>{0, 0});
  REQUIRE(empty.value().mrr == 0);
  REQUIRE(evaluate_evidence({}, EvidenceOptions{}, {0}, 2).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(evaluate_evidence({}, EvidenceOptions{}, {1}, -1).error().code == ErrorCode::kInvalidArgument);
}

TEST_CASE("cutoff recommender stops where marginal recall gain drops", "[unit]") {
  // gains: +0.3 +0.2 +0.1 +0.005 +0.004 ; with min_gain 0.01 the gain after k = 4 is 0.005 < 0.01
  const std::vector<double> curve = {0.3, 0.6, 0.8, 0.9, 0.905, 0.909};
  REQUIRE(recommend_cutoff(curve, 0.01).value() == 4);
  REQUIRE(recommend_cutoff(curve, 0.15).value() == 3);  // gain after k = 3 is 0.1
  REQUIRE(recommend_cutoff(curve, 0.0).value() == 6);   // never below 0 -> the whole curve
  REQUIRE(recommend_cutoff({}, 0.1).error().code == ErrorCode::kInvalidArgument);
}

namespace {
struct Piece {
  std::string text;
  long start, end;
};
// Test-local chunkers: fixed windows with overlap, and naive sentences (". " boundaries).
std::vector<Piece> windows(const std::string& t, std::size_t size, std::size_t stride) {
  std::vector<Piece> out;
  for (std::size_t s = 0; s < t.size(); s += stride) {
    const std::size_t e = std::min(t.size(), s + size);
    out.push_back({t.substr(s, e - s), static_cast<long>(s), static_cast<long>(e)});
    if (e == t.size()) break;
  }
  return out;
}
std::vector<Piece> sentences(const std::string& t) {
  std::vector<Piece> out;
  std::size_t s = 0;
  while (s < t.size()) {
    std::size_t e = t.find(". ", s);
    e = e == std::string::npos ? t.size() : e + 1;
    out.push_back({t.substr(s, e - s), static_cast<long>(s), static_cast<long>(e)});
    s = e;
    while (s < t.size() && t[s] == ' ') ++s;
  }
  return out;
}
}  // namespace

TEST_CASE("SQuAD answer sentences are found by text and by span with two chunkings", "[diff]") {
  const std::string path = ragwasm::testing::require_shared("data/squad-v1.1/dev-v1.1.json");
  const auto j = nlohmann::json::parse(ragwasm::testing::read_file(path));
  std::size_t questions = 0, short_sentences = 0;
  for (const auto& article : j["data"]) {
    for (const auto& para : article["paragraphs"]) {
      const std::string ctx = para["context"];
      const auto sents = sentences(ctx);
      const auto wins = windows(ctx, 400, 200);
      for (const auto& qa : para["qas"]) {
        const long a = qa["answers"][0]["answer_start"];
        // the evidence = the sentence holding the answer start (byte offsets of the UTF-8 context;
        // SQuAD counts characters, so only ASCII contexts are used)
        bool ascii = true;
        for (unsigned char c : ctx) ascii = ascii && c < 128;
        if (!ascii) continue;
        const Piece* ev = nullptr;
        for (const auto& s : sents) {
          if (a >= s.start && a < s.end) ev = &s;
        }
        REQUIRE(ev != nullptr);
        Evidence e{ev->text, {"", ev->start, ev->end}};
        Evidence e_text{ev->text, {}};
        // chunker 1: sentences. Span and text matching agree; exactly the evidence sentence.
        std::vector<RetrievedChunk> sc;
        for (const auto& s : sents) sc.push_back({s.text, {"", s.start, s.end}});
        auto by_span = match_evidence(sc, {e}, EvidenceOptions{}).value();
        auto by_text = match_evidence(sc, {e_text}, EvidenceOptions{}).value();
        for (std::size_t i = 0; i < sc.size(); ++i) {
          REQUIRE(by_span[i][0] == (sents[i].start == ev->start));
          if (by_span[i][0]) REQUIRE(by_text[i][0]);
        }
        // chunker 2: 400-character windows every 200: a sentence of <= 200 characters lies inside one
        // window, so text matching reaches recall 1 over all windows; span matching always does.
        std::vector<RetrievedChunk> wc;
        for (const auto& w : wins) wc.push_back({w.text, {"", w.start, w.end}});
        auto ms = match_evidence(wc, {e}, EvidenceOptions{}).value();
        REQUIRE(evidence_scores(ms, 1, static_cast<int>(wc.size())).recall == 1.0);
        if (ev->end - ev->start <= 200) {
          ++short_sentences;
          auto mt = match_evidence(wc, {e_text}, EvidenceOptions{}).value();
          REQUIRE(evidence_scores(mt, 1, static_cast<int>(wc.size())).recall == 1.0);
        }
        if (++questions >= 300) break;
      }
      if (questions >= 300) break;
    }
    if (questions >= 300) break;
  }
  REQUIRE(questions == 300);
  REQUIRE(short_sentences > 100);
}

TEST_CASE("oversized inexact text matches are refused with a limit error", "[unit]") {
  // 25,000 x 20,000 characters = 5e8 alignment cells > kMaxAlignmentCells = 1e8 (and not an exact substring)
  std::vector<RetrievedChunk> chunks = {{std::string(20000, 'a'), {}}};
  std::vector<Evidence> ev = {{std::string(25000, 'b'), {}}};
  auto m = match_evidence(chunks, ev, EvidenceOptions{});
  REQUIRE(!m.ok());
  REQUIRE(m.error().code == ErrorCode::kLimitExceeded);
  // an exact substring of a long chunk is still fine: linear search, no alignment
  std::vector<Evidence> inside = {{std::string(25000, 'a'), {}}};
  std::vector<RetrievedChunk> big = {{std::string(30000, 'a'), {}}};
  REQUIRE(match_evidence(big, inside, EvidenceOptions{}).value()[0][0]);
}
