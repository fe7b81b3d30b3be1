// libFuzzer entry for src/answer: markdown answer units and the extractive answerer on arbitrary
// bytes. Invariants: unit spans lie inside the text in order, the answerer never fails on valid UTF-8
// and its answer cites only units it read.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "answer/extractive.h"
#include "answer/plain_text.h"
#include "text/utf8.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ragwasm;
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  std::size_t prev = 0;
  for (const auto& u : answer::answer_units(raw)) {
    if (u.start > u.end || u.end > raw.size() || u.start < prev) __builtin_trap();
    if (u.text.empty()) __builtin_trap();
    prev = u.start;
  }
  const std::string text = text::repair_utf8(raw);
  // The first line is the question, the rest one chunk.
  const std::size_t nl = text.find('\n');
  const std::string question = text.substr(0, nl == std::string::npos ? text.size() : nl);
  std::vector<answer::ExtractiveChunk> chunks = {{"c#0", text, 1, question}};
  answer::ExtractiveOptions o;
  o.threshold = 0;
  auto r = answer::extractive_answer(question, chunks, o);
  if (!r.ok()) __builtin_trap();
  for (const auto& s : r.value().sentences) {
    if (s.chunk_index != 0 || s.end > text.size() || s.citation != 1) __builtin_trap();
  }
  auto cs = answer::chunk_scores(question, chunks, o);
  if (!cs.ok() || cs.value().size() != 1 || !(cs.value()[0] >= 0 && cs.value()[0] <= 1)) __builtin_trap();
  return 0;
}
