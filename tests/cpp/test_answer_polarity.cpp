// Yes and No (issue 27): "Yes." / "No." only when the cited unit states that polarity; each negation
// pattern, the question's own negation, conditions, table rows, and the answerer's prefix.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "answer/extractive.h"
#include "answer/polarity.h"

using namespace ragwasm::answer;

namespace {
Polarity pol(const char* unit, const char* question, UnitKind kind = UnitKind::kSentence) {
  return yes_no_polarity(unit, kind, question);
}
}  // namespace

TEST_CASE("Negation cues are words and contractions", "[unit]") {
  for (const char* w : {"not", "no", "never", "cannot", "nor", "none", "neither", "without", "unable", "deferred", "rejected"}) {
    CHECK(negation_cue(w));
  }
  CHECK_FALSE(negation_cue("note"));
  CHECK_FALSE(negation_cue("know"));
  CHECK(question_negated("Is smoking not allowed in the lab?"));
  CHECK(question_negated("Can't I work from home on Fridays?"));
  CHECK(question_negated("Isn\xE2\x80\x99t the office open on Sundays?"));
  CHECK_FALSE(question_negated("Is the office open on Sundays?"));
  CHECK_FALSE(question_negated("Does the note cover it?"));
}

TEST_CASE("cannot and can't before a question term state No", "[unit]") {
  CHECK(pol("Loggers made before 2022 with 4 MB flash cannot run 3.x (the image does not fit).",
            "Can a pre-2022 DL-7 with 4 MB flash run 3.x?") == Polarity::kNo);
  CHECK(pol("You can't carry PTO over into the next year.", "Can I carry PTO over into the next year?") == Polarity::kNo);
  CHECK(pol("You can\xE2\x80\x99t carry PTO over into the next year.", "Can I carry PTO over into the next year?") == Polarity::kNo);
}

TEST_CASE("not no and never before a question term state No", "[unit]") {
  CHECK(pol("The HX-9 does not connect to Perch; it pairs with the Larkspire Field app only.",
            "Can an HX-9 send its readings to Perch?") == Polarity::kNo);
  CHECK(pol("The DL-7 does not support Bluetooth.", "Does the DL-7 support Bluetooth?") == Polarity::kNo);
  CHECK(pol("The WS-410 is not compatible with the LS-240.", "Is the WS-410 compatible with the LS-240?") == Polarity::kNo);
  CHECK(pol("There is no parking at the Lyon office.", "Is there parking at the Lyon office?") == Polarity::kNo);
  CHECK(pol("Passwords are no longer changed every 180 days.", "Do passwords have to be changed every 180 days?") == Polarity::kNo);
  CHECK(pol("Contractors never receive paid sick leave.", "Do contractors receive paid sick leave?") == Polarity::kNo);
}

TEST_CASE("Parking only on weekdays and not on weekends states No for weekends", "[unit]") {
  CHECK(pol("Visitor parking is available only on weekdays, not on weekends.", "Is visitor parking available on weekends?") == Polarity::kNo);
}

TEST_CASE("A prefix negating a question term states No", "[unit]") {
  CHECK(pol("Windows 7 is unsupported.", "Is Windows 7 supported?") == Polarity::kNo);
  CHECK(pol("The LS-240 is incompatible with the WS-410.", "Is the LS-240 compatible with the WS-410?") == Polarity::kNo);
  CHECK(pol("The archive is unavailable during maintenance.", "Is the archive available during maintenance?") == Polarity::kNo);
  // a word that only looks prefixed ("information", "index") is not a negation
  CHECK(pol("The portal shows information about the index of invoices.", "Does the portal show information about the index of invoices?") ==
        Polarity::kYes);
}

TEST_CASE("An outcome word negates the proposal before it", "[unit]") {
  CHECK(pol("The proposal to raise Pro from $9 to $11 was deferred to Q2 2025.",
            "Did Larkspire raise the Perch Pro price to $11 per device per month?") == Polarity::kNo);
}

TEST_CASE("A unit restating the question without a negation states Yes", "[unit]") {
  CHECK(pol("Bearing failures on revision B units are covered for 4 years.", "Are bearing failures on revision B units covered?") ==
        Polarity::kYes);
  CHECK(pol("Employees can carry over up to 5 days of PTO.", "Can employees carry over PTO?") == Polarity::kYes);
}

TEST_CASE("Polarity is unclear when the unit does not restate the question", "[unit]") {
  // a different day, a different number, a different identifier, too few of the question's terms
  CHECK(pol("The Lyon office is open Monday to Friday.", "Is the Lyon office open on Saturdays?") == Polarity::kUnclear);
  CHECK(pol("The warranty covers units for 2 years.", "Does the warranty cover units for 3 years?") == Polarity::kUnclear);
  CHECK(pol("The DL-7 uploads its readings to Perch.", "Can an HX-9 send its readings to Perch?") == Polarity::kUnclear);
  // a negation about something else is not a No, and rules out a Yes
  CHECK(pol("Employees can carry over PTO, but not more than 5 days.", "Can employees carry over PTO?") == Polarity::kUnclear);
  // a negation with too few of the question's terms
  CHECK(pol("It does not fit.", "Can a pre-2022 DL-7 with 4 MB flash run firmware 3.x?") == Polarity::kUnclear);
}

TEST_CASE("A negation scoping one question term states No only when the unit is about most of the question", "[unit]") {
  // "use" is the one question term scoped; the unit does not speak of contractors being allowed anything
  CHECK(pol("In particular: connect through the company VPN, never work on Confidential data on a shared computer, and do not let "
            "family members use your laptop.",
            "Are contractors allowed to use the VPN?") == Polarity::kUnclear);
  // one term scoped ("covered"), the rest of the question in the header and chunk context
  CHECK(yes_no_polarity("Batteries are not covered.", UnitKind::kSentence, "Are the batteries covered by the DL-7 warranty?",
                        "Warranty\nDL-7 \"Wren\" Data Logger \xE2\x80\x94 User Manual") == Polarity::kNo);
  CHECK(pol("Batteries are not covered.", "Are the batteries covered by the DL-7 warranty?") == Polarity::kUnclear);
  // "... a network or Perch outage does not lose ..." says nothing about how long Perch keeps data
  CHECK(pol("With 16 MB of flash, the logger can hold about two million readings, so a network or Perch outage does not lose data.",
            "Does Perch keep data forever?") == Polarity::kUnclear);
  // a term negated by its prefix counts as held: "unavailable" holds "available"
  CHECK(pol("The archive is unavailable.", "Is the archive available during maintenance?") == Polarity::kNo);
  // two question terms scoped: a third of the question's terms in the unit is enough
  CHECK(pol("The DL-7 does not support Bluetooth or Wi-Fi.", "Does the DL-7 logger support Bluetooth pairing with phones?") == Polarity::kNo);
}

TEST_CASE("A condition makes the polarity unclear", "[unit]") {
  CHECK(pol("Employees cannot work remotely unless their manager approves.", "Can employees work remotely?") == Polarity::kUnclear);
  CHECK(pol("Employees can work remotely if their manager approves.", "Can employees work remotely?") == Polarity::kUnclear);
  CHECK(pol("All items can be returned within 30 days except opened software.", "Can items be returned within 30 days?") ==
        Polarity::kUnclear);
}

TEST_CASE("A table row never carries Yes or No", "[unit]") {
  CHECK(pol("HX-9 — Connects to: Larkspire Field app; Perch: no", "Can an HX-9 send its readings to Perch?", UnitKind::kTableRow) ==
        Polarity::kUnclear);
  CHECK(pol("Bearing failures on revision B units — covered: 4 years", "Are bearing failures on revision B units covered?",
            UnitKind::kTableRow) == Polarity::kUnclear);
}

TEST_CASE("The question's own negation swaps Yes and No", "[unit]") {
  CHECK(pol("Smoking is not allowed in the lab.", "Is smoking not allowed in the lab?") == Polarity::kYes);
  CHECK(pol("Smoking is allowed in the lab courtyard.", "Is smoking not allowed in the lab courtyard?") == Polarity::kNo);
  CHECK(pol("Items can be returned without a receipt.", "Can I return items without a receipt?") == Polarity::kYes);
}

TEST_CASE("The answerer says Yes or No only with a stated polarity and quotes the unit otherwise", "[unit]") {
  ExtractiveOptions o;
  o.max_sentences = 1;
  o.threshold = 0;
  std::vector<ExtractiveChunk> no = {{"p#0", "Perch is the cloud service. The HX-9 does not connect to Perch; it pairs with the Field app only.", 1, ""}};
  auto r = extractive_answer("Can an HX-9 send its readings to Perch?", no, o);
  REQUIRE(r.ok());
  CHECK(r.value().polarity == Polarity::kNo);
  CHECK(r.value().text.rfind("No. The HX-9 does not connect", 0) == 0);
  // a table row is quoted as is
  std::vector<ExtractiveChunk> row = {{"t#0", "| Model | Perch |\n|---|---|\n| HX-9 readings | yes |\n", 1, ""}};
  auto t = extractive_answer("Can an HX-9 send its readings to Perch?", row, o);
  REQUIRE(t.ok());
  REQUIRE(t.value().answered);
  CHECK(t.value().polarity == Polarity::kUnclear);
  CHECK(t.value().text.rfind("HX-9 readings", 0) == 0);
  // an unclear sentence is quoted without Yes/No
  std::vector<ExtractiveChunk> lyon = {{"l#0", "The Lyon office is open Monday to Friday.", 1, ""}};
  auto u = extractive_answer("Is the Lyon office open on Saturdays?", lyon, o);
  REQUIRE(u.ok());
  CHECK(u.value().text == "The Lyon office is open Monday to Friday. [1]");
  // not a yes/no question: no polarity
  auto w = extractive_answer("Which app does the HX-9 pair with?", no, o);
  REQUIRE(w.ok());
  CHECK(w.value().polarity == Polarity::kUnclear);
  CHECK(std::string(polarity_name(Polarity::kNo)) == "no");
}

TEST_CASE("Retrieval evidence is the weighted share of question terms found in the chunks read", "[unit]") {
  ExtractiveOptions o;
  o.threshold = 0;
  // one unit; question terms {alpha, beta}: df(alpha) = 1, df(beta) = 0 -> alpha found, beta not
  std::vector<ExtractiveChunk> chunks = {{"c", "Alpha gamma.", 1, ""}};
  auto r = extractive_answer("alpha beta", chunks, o);
  REQUIRE(r.ok());
  const double wa = std::log(2.0 / 1.5), wb = std::log(2.0 / 0.5);
  CHECK(r.value().evidence == Approx(wa / (wa + wb)).epsilon(1e-12));
  // a term in the chunk's context counts as found
  chunks[0].context = "Beta";
  CHECK(extractive_answer("alpha beta", chunks, o).value().evidence == Approx(1.0).epsilon(1e-12));
  // nothing found; no chunk read
  CHECK(extractive_answer("delta epsilon", chunks, o).value().evidence == 0);
  CHECK(extractive_answer("alpha", {}, o).value().evidence == 0);
  // only the first max_chunks chunks count
  std::vector<ExtractiveChunk> two = {{"a", "Alpha.", 1, ""}, {"b", "Beta.", 1, ""}};
  o.max_chunks = 1;
  CHECK(extractive_answer("beta", two, o).value().evidence == 0);
}

TEST_CASE("Each chunk read reports its best unit", "[unit]") {
  ExtractiveOptions o;
  o.threshold = 1;  // nothing answers: the best units are still reported
  std::vector<ExtractiveChunk> chunks = {{"a", "Pumps are red. The warranty lasts 2 years.", 1, ""}, {"b", "", 1, ""},
                                         {"c", "Warranty claims go to support.", 1, ""}};
  auto r = extractive_answer("How long does the warranty last?", chunks, o);
  REQUIRE(r.ok());
  CHECK_FALSE(r.value().answered);
  REQUIRE(r.value().chunk_best.size() == 2);  // chunk b has no unit
  CHECK(r.value().chunk_best[0].chunk_index == 0);
  CHECK(r.value().chunk_best[0].text == "The warranty lasts 2 years.");
  CHECK(r.value().chunk_best[0].citation == 0);
  CHECK(r.value().chunk_best[1].chunk_index == 2);
  CHECK(r.value().chunk_best[1].chunk_id == "c");
}

TEST_CASE("Yes needs every question term in the unit", "[unit]") {
  // a unit that leaves out the question's qualifier (Saturday) does not state Yes about it
  CHECK(pol("Customer support: support@example.com, or phone +1 541 555 0140.", "Can a customer phone support on a Saturday?") ==
        Polarity::kUnclear);
  CHECK(pol("Customers can phone support on Saturdays from 9:00 to 13:00.", "Can a customer phone support on a Saturday?") == Polarity::kYes);
}
