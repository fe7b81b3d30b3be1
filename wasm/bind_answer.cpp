// Bindings for src/answer/: the no-LLM extractive answerer. Chunk texts arrive as UTF-8 bytes; unit
// spans leave as UTF-16 offsets of their chunk's text.
#include <string>
#include <vector>

#include "bind_common.h"
#include "answer/extractive.h"
#include "answer/plain_text.h"
#include "text/utf8.h"

namespace ragwasm::wasm {
namespace {

// An answer unit's kind as the JS API names it.
std::string kind_name(answer::UnitKind kind) {
  return kind == answer::UnitKind::kTableRow ? "table-row" : kind == answer::UnitKind::kListItem ? "list-item" : "sentence";
}

// Answer units as JS objects; spans as UTF-16 offsets of their chunk's text.
val sentences_out(const std::vector<answer::ExtractedSentence>& list, const std::vector<answer::ExtractiveChunk>& chunks) {
  val out = val::array();
  for (const auto& s : list) {
    text::OffsetMapper map(chunks[s.chunk_index].text);
    val x = val::object();
    x.set("chunkIndex", static_cast<double>(s.chunk_index));
    x.set("chunkId", s.chunk_id);
    x.set("start", static_cast<double>(map.to_utf16(s.start)));
    x.set("end", static_cast<double>(map.to_utf16(s.end)));
    x.set("text", s.text);
    x.set("score", s.score);
    x.set("kind", kind_name(s.kind));
    x.set("citation", s.citation);
    out.call<void>("push", x);
  }
  return out;
}

// ids, texts, contexts: Uint8Array[] (UTF-8 bytes); scores: number[]; no_answer_text: UTF-8 bytes.
val extractive_answer(const Bytes& question, val ids, val texts, val scores, val contexts, int max_sentences,
                      int max_chunks, double threshold, double header_weight, double type_mismatch, double entity_mismatch, double key_mismatch, double entity_conflict, bool yes_no_prefix,
                      const Bytes& no_answer_text) {
  return guard([&] {
    const unsigned n = ids["length"].as<unsigned>();
    if (texts["length"].as<unsigned>() != n || scores["length"].as<unsigned>() != n || contexts["length"].as<unsigned>() != n) {
      return reply_error("INVALID_ARGUMENT", "ragwasm: chunks: ids, texts, scores and contexts differ in length");
    }
    std::vector<answer::ExtractiveChunk> chunks(n);
    for (unsigned i = 0; i < n; ++i) {
      chunks[i].id = ids[i].as<std::string>();
      chunks[i].text = texts[i].as<std::string>();
      chunks[i].score = scores[i].as<double>();
      chunks[i].context = contexts[i].as<std::string>();
    }
    answer::ExtractiveOptions o;
    o.max_sentences = max_sentences < 0 ? 0 : static_cast<std::size_t>(max_sentences);
    o.max_chunks = max_chunks < 0 ? 0 : static_cast<std::size_t>(max_chunks);
    o.threshold = threshold;
    o.header_weight = header_weight;
    o.type_mismatch = type_mismatch;
    o.entity_mismatch = entity_mismatch;
    o.key_mismatch = key_mismatch;
    o.entity_conflict = entity_conflict;
    o.yes_no_prefix = yes_no_prefix;
    o.no_answer_text = no_answer_text;
    auto r = answer::extractive_answer(question, chunks, o);
    if (!r.ok()) return reply_error(r.error());
    const auto& a = r.value();
    val v = val::object();
    v.set("answered", a.answered);
    v.set("text", a.text);
    v.set("bestScore", a.best_score);
    v.set("questionType", std::string(answer::question_type_name(a.question_type)));
    val cites = val::array();
    for (const auto& c : a.citations) cites.call<void>("push", c);
    v.set("citations", cites);
    const bool yes_no = a.answered && a.question_type == answer::QuestionType::kYesNo;
    v.set("polarity", yes_no ? val(std::string(answer::polarity_name(a.polarity))) : val::null());
    v.set("evidence", a.evidence);
    v.set("sentences", sentences_out(a.sentences, chunks));
    v.set("chunkBest", sentences_out(a.chunk_best, chunks));
    return reply_ok(v);
  });
}

// The chunks of a scoring call (texts[i] with contexts[i]); false when the two lists differ in length.
bool read_chunks(val texts, val contexts, std::vector<answer::ExtractiveChunk>& chunks) {
  const unsigned n = texts["length"].as<unsigned>();
  if (contexts["length"].as<unsigned>() != n) return false;
  chunks.assign(n, {});
  for (unsigned i = 0; i < n; ++i) {
    chunks[i].text = texts[i].as<std::string>();
    chunks[i].context = contexts[i].as<std::string>();
  }
  return true;
}

// The scoring options shared by chunk_scores and unit_features.
answer::ExtractiveOptions scoring_options(int max_chunks, double header_weight, double type_mismatch, double entity_mismatch,
                                          double key_mismatch, double entity_conflict) {
  answer::ExtractiveOptions o;
  o.max_chunks = max_chunks < 0 ? 0 : static_cast<std::size_t>(max_chunks);
  o.header_weight = header_weight;
  o.type_mismatch = type_mismatch;
  o.entity_mismatch = entity_mismatch;
  o.key_mismatch = key_mismatch;
  o.entity_conflict = entity_conflict;
  return o;
}

// A scoring entry: the chunks read (refused when texts and contexts differ in length), then run(chunks, o), all in guard.
template <class Run>
val scoring_call(val texts, val contexts, const answer::ExtractiveOptions& o, Run run) {
  return guard([&] {
    std::vector<answer::ExtractiveChunk> chunks;
    if (!read_chunks(texts, contexts, chunks)) {
      return reply_error("INVALID_ARGUMENT", "ragwasm: chunks: texts and contexts differ in length");
    }
    return run(chunks, o);
  });
}

// The best unit score per chunk (answer::chunk_scores), as a Float64Array.
val chunk_scores(const Bytes& question, val texts, val contexts, int max_chunks, double header_weight, double type_mismatch,
                 double entity_mismatch, double key_mismatch, double entity_conflict) {
  return scoring_call(texts, contexts, scoring_options(max_chunks, header_weight, type_mismatch, entity_mismatch, key_mismatch, entity_conflict),
                      [&](const std::vector<answer::ExtractiveChunk>& chunks, const answer::ExtractiveOptions& o) {
                        auto r = answer::chunk_scores(question, chunks, o);
                        if (!r.ok()) return reply_error(r.error());
                        return reply_ok(to_typed_array(r.value()));
                      });
}

// Every candidate unit with its features (answer::unit_features); spans as UTF-16 offsets.
val unit_features(const Bytes& question, val texts, val contexts, int max_chunks, double header_weight, double type_mismatch,
                  double entity_mismatch, double key_mismatch, double entity_conflict) {
  return scoring_call(texts, contexts, scoring_options(max_chunks, header_weight, type_mismatch, entity_mismatch, key_mismatch, entity_conflict),
                      [&](const std::vector<answer::ExtractiveChunk>& chunks, const answer::ExtractiveOptions& o) {
                        auto r = answer::unit_features(question, chunks, o);
                        if (!r.ok()) return reply_error(r.error());
                        val out = val::array();
                        for (const auto& f : r.value()) {
                          text::OffsetMapper map(chunks[f.chunk_index].text);
                          val x = val::object();
                          x.set("chunkIndex", static_cast<double>(f.chunk_index));
                          x.set("start", static_cast<double>(map.to_utf16(f.start)));
                          x.set("end", static_cast<double>(map.to_utf16(f.end)));
                          x.set("text", f.text);
                          x.set("kind", kind_name(f.kind));
                          x.set("score", f.score);
                          x.set("cover", f.cover);
                          x.set("unitCover", f.unit_cover);
                          x.set("termShare", f.term_share);
                          x.set("bigramShare", f.bigram_share);
                          x.set("keyShare", f.key_share);
                          x.set("entityShare", f.entity_share);
                          x.set("typeOk", f.type_ok);
                          x.set("entitiesOk", f.entities_ok);
                          x.set("keysOk", f.keys_ok);
                          x.set("position", f.position);
                          x.set("unitTerms", static_cast<double>(f.unit_terms));
                          x.set("missingShare", f.missing_share);
                          out.call<void>("push", x);
                        }
                        return reply_ok(out);
                      });
}

// Markdown bytes -> plain text (chunker.preprocess "markdown-to-text"); never fails.
val markdown_to_text(const Bytes& markdown) {
  return guard([&] { return reply_ok(val(answer::markdown_to_text(markdown))); });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_answer) {
  emscripten::function("answer_markdownToText", &ragwasm::wasm::markdown_to_text);
  emscripten::function("answer_extractive", &ragwasm::wasm::extractive_answer);
  emscripten::function("answer_chunkScores", &ragwasm::wasm::chunk_scores);
  emscripten::function("answer_unitFeatures", &ragwasm::wasm::unit_features);
}
