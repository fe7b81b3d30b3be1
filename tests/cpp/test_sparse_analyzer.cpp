// src/sparse: the Porter2 stemmer against Snowball's own vocabulary and the analyzer's stages.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "shared_data.h"
#include "sparse/analyzer.h"
#include "sparse/porter2.h"

using namespace ragwasm::sparse;
using Tokens = std::vector<std::string>;

namespace {
Tokens run(const AnalyzerOptions& o, std::string_view text) { return Analyzer::create(o).value().analyze(text); }
Tokens run(std::string_view text) { return run(AnalyzerOptions{}, text); }
}  // namespace

TEST_CASE("porter2 equals snowball output for every word of the english test vocabulary", "[diff]") {
  const std::string voc = "/usr/share/snowball/data/english/voc.txt";
  const std::string out = "/usr/share/snowball/data/english/output.txt";
  if (!ragwasm::testing::path_exists(voc) || !ragwasm::testing::path_exists(out)) {
    std::printf("SKIPPED: needs Debian package snowball-data (%s)\n", voc.c_str());
    std::fflush(stdout);
    std::exit(4);
  }
  std::ifstream a(voc), b(out);
  std::string w, expected;
  std::size_t n = 0, bad = 0;
  while (std::getline(a, w) && std::getline(b, expected)) {
    ++n;
    const std::string got = porter2_stem(w);
    if (got != expected) {
      if (++bad <= 20) UNSCOPED_INFO(w << " -> " << got << " (snowball: " << expected << ")");
    }
  }
  CHECK(n == 29417);
  REQUIRE(bad == 0);
}

TEST_CASE("porter2 handles the published examples and short words", "[unit]") {
  CHECK(porter2_stem("consignment") == "consign");
  CHECK(porter2_stem("generously") == "generous");
  CHECK(porter2_stem("skies") == "sky");
  CHECK(porter2_stem("running") == "run");
  CHECK(porter2_stem("hopeful") == "hope");
  CHECK(porter2_stem("at") == "at");
  CHECK(porter2_stem("") == "");
  CHECK(porter2_stem("'") == "'");
}

TEST_CASE("default analyzer lowercases folds accents drops stopwords and stems", "[unit]") {
  CHECK(run("The Running Cafés of Zürich") == Tokens{"run", "cafe", "zurich"});
  CHECK(run("patient's outcomes") == Tokens{"patient", "outcom"});
}

TEST_CASE("identifiers are indexed whole and by parts", "[unit]") {
  CHECK(run("see TS-999 now") == Tokens{"see", "ts", "999", "ts-999", "now"});
  CHECK(run("COVID-19 and IL-6") == Tokens{"covid", "19", "covid-19", "il", "6", "il-6"});
  // plain hyphenated words and numbers are split but not joined
  CHECK(run("well-known 3.5") == Tokens{"well", "known", "3", "5"});
  AnalyzerOptions o;
  o.identifiers = false;
  CHECK(run(o, "TS-999") == Tokens{"ts", "999"});
}

TEST_CASE("overlapping identifier tokens are counted separately from the length", "[unit]") {
  auto a = Analyzer::create({}).value();
  Tokens t;
  std::size_t overlaps = 0;
  a.analyze("TS-999 x-1 plain", &t, &overlaps);
  CHECK(t.size() == 7);
  CHECK(overlaps == 2);
}

TEST_CASE("cjk runs become overlapping bigrams", "[unit]") {
  CHECK(run("\xE4\xB8\xAD\xE6\x96\x87\xE6\xA3\x80\xE7\xB4\xA2") ==
        Tokens{"\xE4\xB8\xAD\xE6\x96\x87", "\xE6\x96\x87\xE6\xA3\x80", "\xE6\xA3\x80\xE7\xB4\xA2"});  // 中文检索
  CHECK(run("x\xE4\xB8\xAD") == Tokens{"x", "\xE4\xB8\xAD"});  // a single CJK character stays a unigram
  AnalyzerOptions o;
  o.cjk_bigrams = false;
  CHECK(run(o, "\xE4\xB8\xAD\xE6\x96\x87") == Tokens{"\xE4\xB8\xAD", "\xE6\x96\x87"});
}

TEST_CASE("every analyzer stage can be switched off", "[unit]") {
  AnalyzerOptions o;
  o.lowercase = false;
  o.fold_accents = false;
  o.use_stopwords = false;
  o.stemmer = Stemmer::kNone;
  CHECK(run(o, "The Cafés running") == Tokens{"The", "Cafés", "running"});
  AnalyzerOptions s;
  s.stopwords = {"running"};
  CHECK(run(s, "the running dog") == Tokens{"the", "dog"});
}

TEST_CASE("non-latin letters are word characters and punctuation separates", "[unit]") {
  CHECK(run("Привет, мир! αβγ") == Tokens{"привет", "мир", "αβγ"});
  CHECK(run("a\xE2\x80\x94" "b \xF0\x9F\x98\x80 c") == Tokens{"b", "c"});  // em dash and emoji separate; "a" is a stopword
  CHECK(run("don\xE2\x80\x99t") == run("don't"));
}

TEST_CASE("invalid utf-8 and very long tokens are handled without failure", "[unit]") {
  CHECK(run("ab\xFF" "cd") == Tokens{"ab", "cd"});
  CHECK(run(std::string(300, 'x') + " ok") == Tokens{"ok"});
  AnalyzerOptions o;
  o.max_token_bytes = 0;
  REQUIRE_FALSE(Analyzer::create(o).ok());
  CHECK(Analyzer::create(o).error().code == ragwasm::ErrorCode::kInvalidArgument);
}
