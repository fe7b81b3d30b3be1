// The ranking rule every ranked list of ragwasm follows (BM25, vector indexes, fusion, aggregation,
// context assembly): a higher score ranks first; equal scores rank by their key ascending (document
// ids bytewise, insertion ordinals numerically), so a list is a pure function of its scores and keys
// and native and WASM builds agree. The one exception is src/metrics/trec.cpp, which sorts runs the
// way trec_eval does (larger docno first among equal scores) to reproduce its numbers.
//
// Equal means `==`: -0.0 and 0.0 tie (and rank by key). A NaN score ranks neither before nor after
// anything (callers reject or never produce NaN scores).
#pragma once

namespace ragwasm {

// True when (score_a, key_a) ranks strictly before (score_b, key_b). A strict weak order for
// non-NaN scores, usable with std::sort, std::partial_sort and the heap algorithms.
template <class Score, class Key>
constexpr bool ranks_before(Score score_a, const Key& key_a, Score score_b, const Key& key_b) {
  return score_a > score_b || (score_a == score_b && key_a < key_b);
}

}  // namespace ragwasm
