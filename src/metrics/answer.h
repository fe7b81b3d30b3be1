// Answer metrics: SQuAD exact match and token F1, ANLS, ROUGE-L, sentence BLEU, and citation
// precision/recall of a generated answer. Formulas and sources beside each function; docs/metrics.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace ragwasm::metrics {

// SQuAD v1.1 evaluate-v1.1.py normalize_answer: lowercase, drop ASCII punctuation, drop the words
// a/an/the (when remove_articles), collapse white space. Lowercasing is Unicode-aware (text::fold).
std::string squad_normalize(std::string_view s, bool remove_articles = true);
std::vector<std::string> squad_tokens(std::string_view s, bool remove_articles = true);

// 1 when the normalized strings are equal, else 0; with several references the maximum.
double exact_match(std::string_view prediction, const std::vector<std::string>& references, bool remove_articles = true);
// Token F1 (SQuAD): overlap = multiset intersection of normalized tokens; P = overlap/|pred|,
// R = overlap/|ref|, F1 = 2PR/(P+R), 0 when overlap is 0; when either side has no token, 1 if both
// are empty else 0 (SQuAD v2 rule). Maximum over references.
double token_f1(std::string_view prediction, const std::vector<std::string>& references, bool remove_articles = true);

// ANLS (Biten et al. 2019, ST-VQA): s = 1 - lev(p, r) / max(|p|, |r|) on lowercased, trimmed code
// points, maximum over references, and 0 when s < threshold (i.e. normalized distance > 1 - threshold;
// the paper's tau = 0.5). Two empty strings score 1.
// Bounded, exact: only distances up to k = ceil((1 - threshold) * max) + 1 matter, so a length
// difference above k scores 0 at once, the common prefix and suffix are dropped, and the rest is an
// Ukkonen band (cells with |i - j| + |delta - (j - i)| <= k) stopped when a whole row exceeds k.
// LIMIT_EXCEEDED when one pair's band needs more than kMaxAlignmentCells cells (about two
// 10,000-character strings at threshold 0.5); a long prediction against a short reference is 0, not an error.
Result<double> anls(std::string_view prediction, const std::vector<std::string>& references, double threshold = 0.5);

// ROUGE-L F1 (Lin 2004; as the rouge-score package with beta = 1): tokens are lowercased runs of
// letters/digits (non-ASCII bytes count as letters); LCS over tokens; P = LCS/|pred|, R = LCS/|ref|,
// F = 2PR/(P+R) (0 when LCS = 0). Maximum over references.
// The common token prefix and suffix are matched first; LIMIT_EXCEEDED when the remaining LCS table
// of one pair has more than kMaxAlignmentCells cells (e.g. 10,000 x 10,000 tokens).
Result<double> rouge_l(std::string_view prediction, const std::vector<std::string>& references);

enum class BleuSmoothing {
  kNone,    // plain BLEU: 0 when any n-gram precision is 0
  kAddOne,  // add-one for n >= 2 (Lin & Och 2004): p_n = (hits+1)/(total+1); unigram precision unsmoothed
};
// Sentence BLEU (Papineni et al. 2002) with uniform weights over 1..max_n-grams, clipped counts
// (maximum count over references; an order with no n-gram counts 0/1), brevity penalty exp(1 - r/c) when c <= r with r the reference
// length closest to c (shorter wins ties, as NLTK). Tokens as rouge_l. 0 for an empty prediction.
double sentence_bleu(std::string_view prediction, const std::vector<std::string>& references, int max_n = 4,
                     BleuSmoothing smoothing = BleuSmoothing::kAddOne);

// Citations of a generated answer. Inline markers: "[1]", "[1, 2]", "[1][3]", "[2-4]". A "Sources"
// (or "References"/"Citations") heading line starts the sources section; its lines "[n] id ...",
// "n. id ..." or "- [n]: id" map marker n to a chunk id (first token, trailing ":,;." removed).
// Markers without a sources entry map to context_ids[n - 1] (the numbered context given to the model).
struct CitationResult {
  std::vector<int> markers;          // distinct markers cited in the body, in first-use order
  std::vector<std::string> cited;    // distinct resolved chunk ids, in first-use order
  std::vector<int> unresolved;       // markers that map to no chunk (count as wrong citations)
  double precision = 0;              // |cited ∩ relevant| / (|cited| + |unresolved|); 0 when nothing cited
  double recall = 0;                 // |cited ∩ relevant| / |relevant|; 0 when relevant is empty
  double f1 = 0;
};
CitationResult citation_metrics(std::string_view answer, const std::vector<std::string>& context_ids,
                                const std::vector<std::string>& relevant_ids);

// Code-point Levenshtein distance, full O(|a| * |b|) table: the boring twin of levenshtein_within,
// used as its test oracle.
std::size_t levenshtein(const std::u32string& a, const std::u32string& b);
// Levenshtein distance when it is <= k, else some value > k (Ukkonen's band; used by ANLS).
// O(min(|a|, |b|) * (k - ||a| - |b|| + 1)) time, O(k) memory.
std::size_t levenshtein_within(std::u32string_view a, std::u32string_view b, std::size_t k);
std::u32string to_u32(std::string_view utf8);

}  // namespace ragwasm::metrics
