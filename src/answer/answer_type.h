// What a question asks for (a person, a number, a date, yes/no, or anything) from its wording, and whether
// an answer unit holds it: the answer-type rules of the extractive answerer (extractive.h, docs/docchat.md).
#pragma once

#include <string_view>

namespace ragwasm::answer {

// The kind of answer a question asks for, from its wording (question_type()).
enum class QuestionType { kOther, kPerson, kNumber, kDate, kYesNo };

// What a question asks for: "who"/"whom"/"whose", and "which"/"what" with an organization noun as the
// next or the second-next word ("Which company makes ...", "What cloud provider ..."; company, firm,
// vendor, supplier, manufacturer, maker, distributor, reseller, courier, carrier, bank, insurer,
// provider, contractor, agency, partner, brand, and their plurals) -> kPerson; "how many", "how much", "how long",
// "how large", "how big", "how quickly", "how often", "how far", "how soon", "how old", "how fast", "how heavy",
// "how tall", "how high", "how deep", "how wide", "how frequently", "how accurate", "how hot", "how cold",
// "how warm", "what share", "what percentage" -> kNumber; "when",
// "what date", "which year", "what year", "what / which day", "what / which weekday", "what / which time" + an auxiliary
// ("What time does the tour start?") -> kDate; a question whose first word, or the first word of its last
// sentence ("The unit is 3 years old. Is it covered?"), is an auxiliary verb (is, are,
// do, does, did, was, were, can, could, has, have, had, will, would, should, may, must) -> kYesNo.
QuestionType question_type(std::string_view question);
// "other", "person", "number", "date", "yes-no".
const char* question_type_name(QuestionType t);

// Does the text hold a quantity: a number that is not part of a code, a version or a phone number ("LS-240",
// "E04", "Q4", "0x01", "3.2.1", "ext. 4242", "+32 9 555 01 00" are not quantities), or a spelled-out number
// ("six months")? "2-year", "$1,000", "48.6%", "16MB" are.
bool has_quantity(std::string_view text);
// Does the text name a unit of time or length (second, minute, hour, day, week, month, year, m, cm,
// km, kilometre, ft, yard, mile, ...), alone or joined to its number ("10km", "2.5h")? What a "how long"
// answer must hold besides its quantity.
bool has_measure_unit(std::string_view text);

// Does a unit's plain text hold what the question type asks for? kPerson: a role word (CEO, CFO,
// founder, manager, team, ...) that `question` does not contain itself, or two adjacent capitalized
// words not at the unit start that `question` does not contain itself, or, for a question asking for an
// organization (question_type), one such capitalized word ("Quectel"); kNumber: a quantity (has_quantity)
// and, for a "how long" question, a unit of time or length (has_measure_unit), for "how soon" / "how old" one of
// time, for "how far" / "how deep" / "how tall" / "how wide" one of length, for "how heavy" or a question about weight
// ("weigh", "weight"; not when a percentage or share is asked for, and after the "how" words above) one of mass
// (a lowercase g after a number, kg, lb, oz, ...), for "how hot" / "how cold" / "how warm" a temperature (a degree
// sign, "degrees", "Celsius", "Fahrenheit"), for a "how much" question
// about a price (cost, price, pay, charge, fee, spend) an amount of money ($, €, £, USD, EUR, dollars, ...); kDate: a month name, a year 1900-2099 or an ISO
// date, a weekday name or a time of day ("08:00", "2 pm", "noon"; "may" is the month only beside a number); kOther
// and kYesNo: always.
bool matches_type(std::string_view unit_text, QuestionType t, std::string_view question = {});

}  // namespace ragwasm::answer
