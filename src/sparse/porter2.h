// The Snowball English ("Porter2") stemmer, written from the published algorithm
// (https://snowballstem.org/algorithms/english/stemmer.html, english.sbl). Checked word for word
// against Snowball's own test vocabulary (Debian snowball-data: english/voc.txt -> output.txt) by
// tests/cpp/test_sparse_porter2.cpp.
#pragma once

#include <string>
#include <string_view>

namespace ragwasm::sparse {

// Stems one lowercase word. Input should be lowercase ASCII letters and apostrophes (as in the
// Snowball vocabulary); other bytes are treated as non-vowels and kept.
std::string porter2_stem(std::string_view word);

}  // namespace ragwasm::sparse
