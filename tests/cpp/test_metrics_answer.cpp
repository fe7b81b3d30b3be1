// src/metrics/answer: SQuAD EM/F1, ANLS, ROUGE-L, sentence BLEU and citation metrics, by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "metrics/answer.h"

using namespace ragwasm::metrics;
using V = std::vector<std::string>;
using ragwasm::ErrorCode;

TEST_CASE("SQuAD normalization drops case punctuation and articles", "[unit]") {
  REQUIRE(squad_normalize("  The  Apple!  ") == "apple");
  REQUIRE(squad_normalize("An apple, a day.") == "apple day");
  REQUIRE(squad_normalize("Theory of the A-team") == "theory of ateam");  // "-" removed, not a separator
  REQUIRE(exact_match("The Apple!", V{"apple"}) == 1.0);
  REQUIRE(exact_match("apples", V{"apple", "pear"}) == 0.0);
  REQUIRE(exact_match("pear", V{"apple", "Pear."}) == 1.0);  // maximum over references
}

TEST_CASE("token F1 counts the multiset overlap of normalized tokens", "[unit]") {
  // SQuAD normalization removes "an": pred {he, ate, apple} vs ref {he, eats, apple}: overlap 2,
  // P = 2/3, R = 2/3 -> F1 = 2/3.
  REQUIRE(token_f1("He ate an apple", V{"He eats an apple"}) == Approx(2.0 / 3).margin(1e-12));
  // Keeping articles: {he, ate, an, apple} vs {he, eats, an, apple}: overlap 3 -> P = R = 3/4 -> 0.75
  REQUIRE(token_f1("He ate an apple", V{"He eats an apple"}, false) == Approx(0.75).margin(1e-12));
  // pred {paris, paris} vs ref {paris}: overlap min(2,1) = 1, P = 1/2, R = 1 -> F1 = 2/3
  REQUIRE(token_f1("Paris Paris", V{"Paris"}) == Approx(2.0 / 3).margin(1e-12));
  REQUIRE(token_f1("", V{""}) == 1.0);
  REQUIRE(token_f1("the", V{"paris"}) == 0.0);  // "the" normalizes to no token
}

TEST_CASE("ANLS is one minus normalized Levenshtein with a 0.5 threshold", "[unit]") {
  // hello vs hallo: 1 substitution / 5 -> 1 - 0.2 = 0.8
  REQUIRE(anls("hello", V{"hallo"}).value() == Approx(0.8).margin(1e-12));
  REQUIRE(anls(" HELLO ", V{"hello"}).value() == 1.0);  // lowercased and trimmed
  // abc vs xyz: 3/3 -> similarity 0 < 0.5 -> 0
  REQUIRE(anls("abc", V{"xyz"}).value() == 0.0);
  // abcd vs abxy: 2/4 -> 0.5, not below the threshold -> 0.5
  REQUIRE(anls("abcd", V{"abxy"}).value() == Approx(0.5).margin(1e-12));
  REQUIRE(anls("abcd", V{"zzzz", "abcx"}).value() == Approx(0.75).margin(1e-12));
  REQUIRE(levenshtein(to_u32("kitten"), to_u32("sitting")) == 3);
  REQUIRE(levenshtein(to_u32("caf\xC3\xA9"), to_u32("cafe")) == 1);  // code points, not bytes
}

TEST_CASE("ROUGE-L uses the longest common token subsequence", "[unit]") {
  // LCS(the cat sat on the mat, the cat on the mat) = 5: P = 5/6, R = 5/5, F = 2PR/(P+R) = 10/11
  REQUIRE(rouge_l("the cat sat on the mat", V{"The cat on the mat."}).value() == Approx(10.0 / 11).margin(1e-12));
  REQUIRE(rouge_l("x", V{"y"}).value() == 0.0);
}

TEST_CASE("sentence BLEU with add-one smoothing and brevity penalty by hand", "[unit]") {
  REQUIRE(sentence_bleu("the cat sat on the mat", V{"the cat sat on the mat"}) == Approx(1.0).margin(1e-12));
  // pred "the cat sat" (c = 3) vs ref of 6 tokens: p1 = 3/3; p2 = (2+1)/(2+1); p3 = (1+1)/(1+1);
  // p4: no 4-gram, (0+1)/(max(1,0)+1) = 1/2. BP = exp(1 - 6/3). BLEU = BP * (1*1*1*0.5)^(1/4)
  const double expected = std::exp(1.0 - 6.0 / 3.0) * std::pow(0.5, 0.25);
  REQUIRE(sentence_bleu("the cat sat", V{"the cat sat on the mat"}) == Approx(expected).margin(1e-12));
  // Without smoothing a missing 4-gram order makes BLEU 0.
  REQUIRE(sentence_bleu("the cat sat", V{"the cat sat on the mat"}, 4, BleuSmoothing::kNone) == 0.0);
  // No unigram in common -> 0 whatever the smoothing.
  REQUIRE(sentence_bleu("dog", V{"the cat"}) == 0.0);
}

TEST_CASE("citation precision and recall resolve markers through the sources section", "[unit]") {
  const std::string answer =
      "Paris is the capital [1]. It is large [2, 3].\n\n## Sources:\n[1] doc-a: Paris article\n[2] doc-b\n";
  // markers 1,2,3; 1 -> doc-a and 2 -> doc-b (sources), 3 -> context_ids[2] = c3.
  // relevant {doc-a, c3}: 2 of 3 cited are relevant -> P = 2/3; both relevant cited -> R = 2/2.
  auto r = citation_metrics(answer, V{"c1", "c2", "c3"}, V{"doc-a", "c3"});
  REQUIRE(r.markers == std::vector<int>{1, 2, 3});
  REQUIRE(r.cited == V{"doc-a", "doc-b", "c3"});
  REQUIRE(r.precision == Approx(2.0 / 3).margin(1e-12));
  REQUIRE(r.recall == Approx(1.0).margin(1e-12));
  REQUIRE(r.f1 == Approx(2 * (2.0 / 3) / (2.0 / 3 + 1)).margin(1e-12));
}

TEST_CASE("citation markers without a source count as wrong and ranges expand", "[unit]") {
  // [1-2] -> 1, 2 ; [7] has no source and no 7th context chunk -> unresolved
  auto r = citation_metrics("A [1-2] and B [7]. Not a marker: [x].", V{"c1", "c2"}, V{"c2"});
  REQUIRE(r.markers == std::vector<int>{1, 2, 7});
  REQUIRE(r.unresolved == std::vector<int>{7});
  REQUIRE(r.precision == Approx(1.0 / 3).margin(1e-12));  // c2 relevant of {c1, c2, unresolved 7}
  REQUIRE(r.recall == 1.0);
  auto none = citation_metrics("No citations at all.", V{"c1"}, V{"c1"});
  REQUIRE(none.precision == 0.0);
  REQUIRE(none.recall == 0.0);
}

namespace {
// Seeded random strings over a small alphabet so that distances of every size occur.
std::u32string random_u32(std::uint32_t& seed, std::size_t max_len, char32_t alphabet) {
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
  };
  std::u32string s(next() % (max_len + 1), U'a');
  for (auto& c : s) c = U'a' + static_cast<char32_t>(next() % alphabet);
  return s;
}
std::string ascii_of(const std::u32string& s) { return std::string(s.begin(), s.end()); }  // letters a.. only
}  // namespace

TEST_CASE("#19 the banded edit distance equals the full table whenever it is within the bound", "[prop]") {
  std::uint32_t seed = 19;  // fixed; the iteration is printed on failure
  for (int iter = 0; iter < 3000; ++iter) {
    INFO("seed 19 iteration " << iter);
    const std::u32string a = random_u32(seed, 40, 4), b = random_u32(seed, 40, 4);
    const std::size_t full = levenshtein(a, b);
    const std::size_t k = seed % 45;
    const std::size_t within = levenshtein_within(a, b, k);
    if (full <= k) REQUIRE(within == full);
    else REQUIRE(within > k);
  }
}

TEST_CASE("#19 ANLS with the band equals ANLS from the full table at every threshold", "[prop]") {
  std::uint32_t seed = 1919;
  for (int iter = 0; iter < 2000; ++iter) {
    INFO("seed 1919 iteration " << iter);
    const std::u32string a = random_u32(seed, 30, 3), b = random_u32(seed, 30, 3);
    const double threshold = static_cast<double>(seed % 11) / 10.0;  // 0, 0.1, ..., 1
    const std::size_t m = std::max(a.size(), b.size());
    double expected = 1.0;  // two empty strings
    if (m > 0) {
      const double s = 1.0 - static_cast<double>(levenshtein(a, b)) / static_cast<double>(m);
      expected = s < threshold ? 0.0 : s;
    }
    REQUIRE(anls(ascii_of(a), V{ascii_of(b)}, threshold).value() == expected);  // exact: the same arithmetic
  }
}

TEST_CASE("#19 ANLS of a long answer against a short reference is 0 without a limit error", "[unit]") {
  // 1,000,000 vs 5 characters: the length difference alone puts the score below 0.5.
  REQUIRE(anls(std::string(1000000, 'x'), V{"hello"}).value() == 0.0);
  // Two equal 1,000,000-character strings: the common prefix covers everything.
  REQUIRE(anls(std::string(1000000, 'x'), V{std::string(1000000, 'x')}).value() == 1.0);
}

TEST_CASE("#19 ANLS and ROUGE-L refuse alignments over the cell limit and then still work", "[unit]") {
  // 20,000 vs 20,000 characters differing everywhere: a band of 10,001 diagonals x 20,000 rows = 2e8 > 1e8.
  const std::string a(20000, 'a');
  const std::string b(20000, 'b');
  auto r = anls(a, V{"short", b});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::kLimitExceeded);
  CHECK(r.error().message.find("references[1]") != std::string::npos);
  REQUIRE(anls("hello", V{"hallo"}).value() == Approx(0.8).margin(1e-12));
  // 12,000 x 12,000 distinct tokens = 1.44e8 LCS cells > 1e8.
  std::string p, q;
  for (int i = 0; i < 12000; ++i) p += "p" + std::to_string(i) + " ", q += "q" + std::to_string(i) + " ";
  auto l = rouge_l(p, V{q});
  REQUIRE_FALSE(l.ok());
  CHECK(l.error().code == ErrorCode::kLimitExceeded);
  // 9,000 x 9,000 tokens = 8.1e7 cells fit.
  std::string p9, q9;
  for (int i = 0; i < 9000; ++i) p9 += "p" + std::to_string(i) + " ", q9 += "q" + std::to_string(i) + " ";
  REQUIRE(rouge_l(p9, V{q9}).value() == 0.0);
  REQUIRE(rouge_l("the cat sat on the mat", V{"The cat on the mat."}).value() == Approx(10.0 / 11).margin(1e-12));
}

TEST_CASE("#19 ROUGE-L with a shared prefix and suffix equals the plain LCS", "[unit]") {
  // pred a b x c d / ref a b y c d: LCS = 4 (a b c d): P = R = 4/5, F = 0.8
  REQUIRE(rouge_l("a b x c d", V{"a b y c d"}).value() == Approx(0.8).margin(1e-12));
  // pred a a b / ref a b b: LCS = 2: P = R = 2/3, F = 2/3
  REQUIRE(rouge_l("a a b", V{"a b b"}).value() == Approx(2.0 / 3).margin(1e-12));
}
