// Markdown chunk text -> plain answer units: inline markup, headers, tables with column names, list
// items, fenced code, and source spans that point back into the markdown.
#include <catch2/catch.hpp>

#include <string>

#include "answer/plain_text.h"

using namespace ragwasm::answer;

TEST_CASE("Inline markdown becomes plain text", "[unit]") {
  CHECK(plain_inline("Employees receive **22 days of PTO** per year.") == "Employees receive 22 days of PTO per year.");
  CHECK(plain_inline("See the [PTO guide](docs/pto.md) and ![logo](l.png).") == "See the PTO guide and logo.");
  CHECK(plain_inline("Run `ragwasm ask` __now__ *please*") == "Run ragwasm ask now please");
  CHECK(plain_inline("## Leave  and\n  holidays ") == "Leave and holidays");
  CHECK(plain_inline("snake_case stays") == "snake_case stays");
  CHECK(plain_inline("[not a link] (x)") == "[not a link] (x)");
}

TEST_CASE("Headers are not units but label the units below them", "[unit]") {
  const std::string md = "# Leave\n\nFull-time employees get **22 days**. They accrue monthly.\n\n## Sick leave\n\nTen days.\n";
  const auto u = answer_units(md);
  REQUIRE(u.size() == 3);
  CHECK(u[0].text == "Full-time employees get 22 days.");
  CHECK(u[0].header == "Leave");
  CHECK(md.substr(u[0].start, u[0].end - u[0].start) == "Full-time employees get **22 days**.");
  CHECK(u[1].text == "They accrue monthly.");
  CHECK(u[2].text == "Ten days.");
  CHECK(u[2].header == "Sick leave");
}

TEST_CASE("A table data row is rendered with the column names of its header row", "[unit]") {
  const std::string md = "| Expense | v3.0 | v3.1 |\n|---|---|---|\n| Domestic meal per diem | $65 | $72 |\n| Hotel | | $295 |\n";
  const auto u = answer_units(md);
  REQUIRE(u.size() == 2);
  CHECK(u[0].kind == UnitKind::kTableRow);
  CHECK(u[0].text == "Domestic meal per diem — v3.0: $65; v3.1: $72");
  CHECK(md.substr(u[0].start, u[0].end - u[0].start) == "| Domestic meal per diem | $65 | $72 |");
  CHECK(u[1].text == "Hotel — v3.1: $295");  // the empty cell is left out
}

TEST_CASE("A table without a header row renders its cells joined", "[unit]") {
  const auto u = answer_units("| Q4 2024 | 17,200 |\n");
  REQUIRE(u.size() == 1);
  CHECK(u[0].text == "Q4 2024 — 17,200");
}

TEST_CASE("List items are units without their markers and hard-wrapped lines join", "[unit]") {
  const std::string md = "Rules:\n- First rule is\n  wrapped here.\n* Second rule.\n1. Third rule.\n";
  const auto u = answer_units(md);
  REQUIRE(u.size() == 4);
  CHECK(u[0].text == "Rules:");
  CHECK(u[1].kind == UnitKind::kListItem);
  CHECK(u[1].text == "First rule is wrapped here.");
  CHECK(md.substr(u[1].start, u[1].end - u[1].start) == "First rule is\n  wrapped here.");
  CHECK(u[2].text == "Second rule.");
  CHECK(u[3].text == "Third rule.");
}

TEST_CASE("Fenced code and rules are skipped", "[unit]") {
  const auto u = answer_units("Before.\n\n```toml\nkey = 1\n```\n\n---\n\nAfter.");
  REQUIRE(u.size() == 2);
  CHECK(u[0].text == "Before.");
  CHECK(u[1].text == "After.");
}

TEST_CASE("Plain text without markdown is split into sentences", "[unit]") {
  const auto u = answer_units("Acme was founded in 1998. It makes pumps.");
  REQUIRE(u.size() == 2);
  CHECK(u[0].text == "Acme was founded in 1998.");
  CHECK(u[0].start == 0);
  CHECK(u[1].text == "It makes pumps.");
  CHECK(answer_units("").empty());
  CHECK(answer_units("\n\n  \n").empty());
}

TEST_CASE("markdown_to_text: the chunker.preprocess step keeps lines and paragraphs, drops markup", "[unit]") {
  const std::string md =
      "# Leave Policy\n\nEmployees get **22 days** of [PTO](pto.md).\n\n\n- first *item*\n2. second item\n"
      "> quoted `code`\n\n| Quarter | Units |\n|---|---:|\n| Q4 | 17,200 |\n\n---\n```\nlet x = **1**;\n```\r\nlast line  \r\n";
  CHECK(markdown_to_text(md) ==
        "Leave Policy\n\nEmployees get 22 days of PTO.\n\nfirst item\nsecond item\nquoted code\n\nQuarter\tUnits\nQ4\t17,200\n\n"
        "let x = **1**;\nlast line");
  CHECK(markdown_to_text("") == "");
  CHECK(markdown_to_text("\n \n\n") == "");
  CHECK(markdown_to_text("plain   text, no markup") == "plain text, no markup");
  // An unclosed fence keeps the rest as written.
  CHECK(markdown_to_text("a\n```\n# not a header") == "a\n# not a header");
}

TEST_CASE("markdown_to_text stays linear on a long line of unclosed link openers", "[unit]") {
  // 200,000 '[' on one line (a quadratic scan would take ~10^10 steps): kept as text.
  const std::string line(200000, '[');
  CHECK(markdown_to_text(line) == line);
  CHECK(plain_inline(std::string(100000, '[') + "](") == std::string(100000, '[') + "](");
  CHECK(plain_inline("[a](x) [b] [c](y)") == "a [b] c");
}
