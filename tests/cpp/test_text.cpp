// src/text: UTF-8 validation/repair, offset mapping, folding and sentence splitting, as a spec.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "text/casefold.h"
#include "text/sentences.h"
#include "text/utf8.h"

using namespace ragwasm::text;

namespace {
std::vector<std::string> texts_of(std::string_view t, const std::vector<Span>& spans) {
  std::vector<std::string> out;
  for (auto s : spans) out.emplace_back(t.substr(s.start, s.end - s.start));
  return out;
}
std::vector<std::string> sentences(std::string_view t) { return texts_of(t, split_sentences(t)); }
}  // namespace

TEST_CASE("valid UTF-8 is accepted including 4-byte characters", "[unit]") {
  REQUIRE(is_valid_utf8("plain ascii"));
  REQUIRE(is_valid_utf8("caf\xC3\xA9 \xF0\x9F\x98\x80 \xE4\xB8\xAD"));
  REQUIRE(is_valid_utf8(""));
}

TEST_CASE("ill-formed UTF-8 is located at its first bad byte", "[unit]") {
  REQUIRE(find_invalid_utf8("ab\xFF") == 2);
  REQUIRE(find_invalid_utf8("ab\xC3") == 2);                 // truncated 2-byte sequence
  REQUIRE(find_invalid_utf8("\xED\xA0\x80") == 0);           // UTF-16 surrogate encoded in UTF-8
  REQUIRE(find_invalid_utf8("\xC0\xAF") == 0);               // overlong
  REQUIRE(find_invalid_utf8("\xF4\x90\x80\x80") == 0);       // above U+10FFFF
  REQUIRE(find_invalid_utf8("12345678\x80") == 8);           // after the 8-byte ASCII fast path
}

TEST_CASE("repair replaces each maximal ill-formed subpart by one U+FFFD like TextDecoder", "[unit]") {
  REQUIRE(repair_utf8("a\xFF" "b") == "a\xEF\xBF\xBD" "b");
  REQUIRE(repair_utf8("\xE2\x82") == "\xEF\xBF\xBD");              // truncated 3-byte: one replacement
  REQUIRE(repair_utf8("\xF0\x9F\x98") == "\xEF\xBF\xBD");          // truncated 4-byte: one replacement
  REQUIRE(repair_utf8("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // C0 is never valid: two
  REQUIRE(is_valid_utf8(repair_utf8("\xFF\xFE\xED\xA0\x80 ok")));
}

TEST_CASE("UTF-16 offsets count astral characters as two units", "[unit]") {
  const std::string t = "a\xC3\xA9\xF0\x9F\x98\x80z";  // a é 😀 z: bytes 0,1,3,7 -> units 0,1,2,4
  OffsetMapper m(t);
  REQUIRE(m.utf16_size() == 5);
  REQUIRE(m.to_utf16(0) == 0);
  REQUIRE(m.to_utf16(1) == 1);
  REQUIRE(m.to_utf16(3) == 2);
  REQUIRE(m.to_utf16(7) == 4);
  REQUIRE(m.to_utf16(8) == 5);
  REQUIRE(m.to_utf16(5) == 2);  // inside the emoji -> its start
  REQUIRE(m.to_utf8(4) == 7);
  REQUIRE(m.to_utf8(3) == 3);   // between the surrogates -> the emoji's start
  REQUIRE(utf16_length(t) == 5);
}

TEST_CASE("to_utf16 gives the code units of a JS string and U+FFFD for ill-formed bytes", "[unit]") {
  REQUIRE(to_utf16("a\xC3\xA9\xF0\x9F\x98\x80z") == std::u16string(u"a\u00E9\U0001F600z"));
  REQUIRE(to_utf16("a\xFF" "b") == std::u16string(u"a\uFFFDb"));
  REQUIRE(to_utf16("") == std::u16string());
  const std::string t = "x\xE4\xB8\xAD\xF0\x9F\x98\x80";
  REQUIRE(to_utf16(t).size() == utf16_length(t));
}

TEST_CASE("offset mapping round-trips on random mixed-script text (seeded)", "[prop]") {
  const std::vector<std::string> pieces = {"a", " ", "\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80", "\r\n", "Z"};
  std::mt19937 rng(12345);
  for (int round = 0; round < 200; ++round) {
    std::string t;
    const int n = static_cast<int>(rng() % 400);
    std::vector<std::pair<std::size_t, std::size_t>> starts;  // (byte offset, piece index)
    for (int i = 0; i < n; ++i) {
      const std::size_t p = rng() % pieces.size();
      starts.emplace_back(t.size(), p);
      t += pieces[p];
    }
    OffsetMapper m(t);
    std::size_t units = 0;
    for (auto [s, p] : starts) {
      INFO("seed 12345 round " << round << " byte " << s);
      REQUIRE(m.to_utf16(s) == units);
      REQUIRE(m.to_utf8(units) == s);
      units += utf16_length(pieces[p]);
    }
    REQUIRE(m.utf16_size() == units);
  }
}

TEST_CASE("lowercasing covers Latin-1 and Latin Extended-A and Greek and Cyrillic", "[unit]") {
  REQUIRE(fold("HELLO \xC3\x89T\xC3\x89", {true, false}) == "hello \xC3\xA9t\xC3\xA9");      // ÉTÉ -> été
  REQUIRE(fold("\xC5\x81\xC3\x93\xC5\xB9", {true, false}) == "\xC5\x82\xC3\xB3\xC5\xBA");    // ŁÓŹ -> łóź
  REQUIRE(fold("\xCE\xA3\xCE\x9F\xCE\xA6", {true, false}) == "\xCF\x83\xCE\xBF\xCF\x86");    // ΣΟΦ -> σοφ
  REQUIRE(fold("\xD0\x9C\xD0\x98\xD0\xA0", {true, false}) == "\xD0\xBC\xD0\xB8\xD1\x80");    // МИР -> мир
}

TEST_CASE("accent folding maps Latin letters to ASCII and drops combining marks", "[unit]") {
  REQUIRE(fold("\xC3\x87" "a D\xC3\xA9j\xC3\xA0") == "ca deja");          // Ça Déjà
  REQUIRE(fold("Stra\xC3\x9F" "e") == "strasse");                         // Straße
  REQUIRE(fold("\xC3\x86sir \xC5\x92uvre") == "aesir oeuvre");            // Æsir Œuvre
  REQUIRE(fold("e\xCC\x81") == "e");                                      // e + U+0301
  REQUIRE(fold("\xC5\x81\xC3\xB3" "d\xC5\xBA") == "lodz");                // Łódź
  REQUIRE(fold("\xC3\x89t\xC3\xA9", {false, true}) == "Ete");             // accents only, case kept
}

// The reference fold, one code point at a time (the definition fold_into's 8-byte ASCII path and
// in-place writes must reproduce).
static std::string fold_reference(const std::string& text, const FoldOptions& o) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t len;
    bool ok;
    char32_t cp = decode_utf8(text, i, &len, &ok);
    if (o.lowercase) cp = lower_code_point(cp);
    const char* folded = o.fold_accents ? fold_code_point(cp) : nullptr;
    if (folded != nullptr) {
      for (const char* p = folded; *p; ++p) out.push_back(o.lowercase && *p >= 'A' && *p <= 'Z' ? static_cast<char>(*p + 32) : *p);
    } else if (ok && !o.lowercase) {
      out.append(text, i, len);
    } else {
      append_utf8(out, cp);
    }
    i += len;
  }
  return out;
}

TEST_CASE("fold_into equals the code point by code point fold on mixed random text", "[prop]") {
  // ASCII runs of every length around the 8-byte blocks, every ASCII byte (so each side of 'A' and
  // 'Z'), growing folds (ß -> ss), invalid bytes (-> U+FFFD, 3 bytes from 1) and a reused buffer.
  const std::vector<std::string> atoms = {"a", "Z", "@", "[", "`", "{", "AZaz09", "Hello World ", "\xC3\x9F",
                                          "\xC3\x89", "\xE6\x9D\xB1", "\xF0\x9F\x98\x80", "\xFF", "\xC3", "e\xCC\x81",
                                          "\xCE\xA3", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", std::string(1, '\0')};
  std::mt19937 rng(20261127);
  std::string reused;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text;
    const int parts = static_cast<int>(rng() % 12);
    for (int p = 0; p < parts; ++p) {
      if (rng() % 3 == 0) {
        for (unsigned k = rng() % 20; k > 0; --k) text.push_back(static_cast<char>(rng() % 128));
      } else {
        text += atoms[rng() % atoms.size()];
      }
    }
    for (const FoldOptions o : {FoldOptions{true, true}, FoldOptions{true, false}, FoldOptions{false, true}, FoldOptions{false, false}}) {
      INFO("seed 20261127 trial " << trial << " options " << o.lowercase << o.fold_accents);
      const std::string want = fold_reference(text, o);
      fold_into(text, o, &reused);
      REQUIRE(reused == want);
      REQUIRE(fold(text, o) == want);
    }
  }
}

TEST_CASE("sentences end at periods and question and exclamation marks", "[unit]") {
  REQUIRE(sentences("It rained. We stayed in! Did you? Yes.") ==
          std::vector<std::string>{"It rained.", "We stayed in!", "Did you?", "Yes."});
}

TEST_CASE("abbreviations and initials do not end sentences", "[unit]") {
  REQUIRE(sentences("Dr. Smith met Mr. J. R. Jones at 5 p.m. on Main St. near the U.S. Capitol. Then they left.") ==
          std::vector<std::string>{"Dr. Smith met Mr. J. R. Jones at 5 p.m. on Main St. near the U.S. Capitol.",
                                   "Then they left."});
  REQUIRE(sentences("See Fig. 3 and No. 12 for details. Acme Inc. The company grew.") ==
          std::vector<std::string>{"See Fig. 3 and No. 12 for details.", "Acme Inc.", "The company grew."});
  // a phone extension is followed by its number
  REQUIRE(sentences("Call the desk on ext. 2150 or tel. 555 0100 today. Done.") ==
          std::vector<std::string>{"Call the desk on ext. 2150 or tel. 555 0100 today.", "Done."});
  REQUIRE(sentences("Use tools, e.g. hammers, etc. and more. Done.") ==
          std::vector<std::string>{"Use tools, e.g. hammers, etc. and more.", "Done."});
}

TEST_CASE("decimals and versions and URLs do not end sentences", "[unit]") {
  REQUIRE(sentences("Revenue rose 3.5% to $1.2 billion in v2.0.1 per example.com today. Good.") ==
          std::vector<std::string>{"Revenue rose 3.5% to $1.2 billion in v2.0.1 per example.com today.", "Good."});
}

TEST_CASE("ellipses end a sentence only before a capital", "[unit]") {
  REQUIRE(sentences("Wait... and then it happened... Later we knew.") ==
          std::vector<std::string>{"Wait... and then it happened...", "Later we knew."});
}

TEST_CASE("closing quotes and brackets stay with their sentence", "[unit]") {
  REQUIRE(sentences("He said \"stop.\" She left. (It was late.) Fine.") ==
          std::vector<std::string>{"He said \"stop.\"", "She left.", "(It was late.)", "Fine."});
}

TEST_CASE("bullets and numbered items and headers and blank lines split", "[unit]") {
  const std::string t = "# Travel policy\nBook early\nand save.\n\n- Flights over 6 hours\n- Hotels\n1. First item\n2) Second\n\nLast paragraph";
  REQUIRE(sentences(t) == std::vector<std::string>{"# Travel policy", "Book early\nand save.", "- Flights over 6 hours",
                                                   "- Hotels", "1. First item", "2) Second", "Last paragraph"});
}

TEST_CASE("CJK full stops split without spaces", "[unit]") {
  REQUIRE(sentences("\xE4\xBB\x8A\xE5\xA4\xA9\xE3\x80\x82\xE6\x98\x8E\xE5\xA4\xA9\xEF\xBC\x81") ==
          std::vector<std::string>{"\xE4\xBB\x8A\xE5\xA4\xA9\xE3\x80\x82", "\xE6\x98\x8E\xE5\xA4\xA9\xEF\xBC\x81"});
}

TEST_CASE("custom abbreviations are honoured and validated", "[unit]") {
  SentenceOptions o;
  o.abbreviations = {"Approx.", "Dept"};
  auto s = SentenceSplitter::create(o);
  REQUIRE(s.ok());
  const std::string t = "Approx. Forty came. Done.";
  REQUIRE(texts_of(t, s.value().split(t)) == std::vector<std::string>{"Approx. Forty came.", "Done."});
  o.abbreviations = {"two words"};
  auto bad = SentenceSplitter::create(o);
  REQUIRE_FALSE(bad.ok());
  REQUIRE(bad.error().code == ragwasm::ErrorCode::kInvalidArgument);
  REQUIRE(bad.error().message.find("abbreviations[0]") != std::string::npos);
}

TEST_CASE("newline_breaks makes every line a sentence", "[unit]") {
  SentenceOptions o;
  o.newline_breaks = true;
  auto s = SentenceSplitter::create(o).value();
  const std::string t = "roses are red\nviolets are blue";
  REQUIRE(texts_of(t, s.split(t)) == std::vector<std::string>{"roses are red", "violets are blue"});
}

TEST_CASE("sentence spans are ordered and trimmed and cover every non-space byte (seeded)", "[prop]") {
  const std::vector<std::string> pieces = {"Dr.", " ", "word", ".", "!", "?", "\n", "\n\n", "- ", "3.5", "\xE3\x80\x82",
                                           "\xF0\x9F\x98\x80", "\"", ")", "U.S.", "...", "\t", "\xC2\xA0", "\xFF", "# "};
  std::mt19937 rng(777);
  for (int round = 0; round < 2000; ++round) {
    std::string t;
    const int n = static_cast<int>(rng() % 60);
    for (int i = 0; i < n; ++i) t += pieces[rng() % pieces.size()];
    const auto spans = split_sentences(t);
    std::vector<bool> covered(t.size(), false);
    std::size_t prev_end = 0;
    for (auto s : spans) {
      INFO("seed 777 round " << round);
      REQUIRE(s.start < s.end);
      REQUIRE(s.start >= prev_end);
      REQUIRE(s.end <= t.size());
      REQUIRE(t[s.start] != ' ');
      REQUIRE(t[s.end - 1] != ' ');
      for (std::size_t i = s.start; i < s.end; ++i) covered[i] = true;
      prev_end = s.end;
    }
    for (std::size_t i = 0; i < t.size(); ++i) {
      const char c = t[i];
      const bool ascii_space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
      const bool nbsp = (static_cast<unsigned char>(c) == 0xC2 && i + 1 < t.size() && static_cast<unsigned char>(t[i + 1]) == 0xA0) ||
                        (static_cast<unsigned char>(c) == 0xA0 && i > 0 && static_cast<unsigned char>(t[i - 1]) == 0xC2);
      if (!ascii_space && !nbsp) {
        INFO("seed 777 round " << round << " byte " << i);
        REQUIRE(covered[i]);
      }
    }
  }
}
