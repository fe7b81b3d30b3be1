// Yes and No: what an answer unit states about a yes/no question, so that "Yes." / "No." is said only
// when the cited sentence states that polarity (negation handled, the question's own negation too),
// and the unit is quoted without it otherwise (docs/docchat.md, "Yes and No").
#pragma once

#include <string_view>

#include "answer/plain_text.h"

namespace ragwasm::answer {

// What a cited unit says about a yes/no question (yes_no_polarity).
enum class Polarity { kUnclear, kYes, kNo };

// Does a yes/no question negate its own predicate ("Is smoking not allowed?", "Can't I ...?", "Isn't it
// ...?", "Can I return it without a receipt?"): a negation cue (negation_cue) among its words.
bool question_negated(std::string_view question);

// Is `word` (folded, one word) a negation cue: not, no, never, cannot, nor, none, neither, nobody,
// nothing, nowhere, without, unable, or an outcome word (deferred, rejected, declined, denied, refused,
// postponed, cancelled, canceled, withdrawn)? Contractions are read as "not" ("can't", "doesn’t").
bool negation_cue(std::string_view word);

// What a unit states about a yes/no question (docs/docchat.md, "Yes and No"):
//  - kNo when negation cues scope question terms: one of the next 4 content words after a cue, in the
//    same clause (up to , ; : . ! ? or a parenthesis), is a question term or a close variant ("does not
//    support Bluetooth", "cannot run 3.x", "is not compatible", "no parking"), or the cue is an outcome
//    word with a question term among the 4 content words before or after it ("the proposal to raise Pro
//    ... was deferred"), or a word is a question term negated by its prefix un-, in-, non- ("unsupported",
//    "incompatible", "unavailable"); with question terms scoped at two or more words of the unit, the unit
//    must hold at least a third of the question's distinct terms (a term negated by a prefix counts as
//    held); with one such word, the unit with its header and chunk
//    `context` must hold more than half of them ("Batteries are not covered." under the DL-7 manual's
//    warranty header is a No for "Are the batteries covered by the DL-7 warranty?"; "... do not let family
//    members use it" is not a No for "Are contractors allowed to use the VPN?");
//  - kYes when the unit has no negation cue at all and holds every one of the question's distinct terms
//    (close variants allowed; numbers exactly) and every identifier of the question (question_entities);
//  - otherwise kUnclear, and always for a table row or a unit with a condition (if, unless, except,
//    provided, depending).
// A question that negates itself (question_negated) swaps the two: "Is smoking not allowed?" is
// answered kYes by "Smoking is not allowed indoors." The cue words themselves are not question terms.
Polarity yes_no_polarity(std::string_view unit_text, UnitKind kind, std::string_view question, std::string_view context = {});
// "unclear", "yes", "no".
const char* polarity_name(Polarity p);

}  // namespace ragwasm::answer
