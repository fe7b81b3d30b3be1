// Bindings for src/sparse: the BM25 index (add/upsert/remove/search/save/load) and the analyzer.
// Documents cross as one UTF-8 blob + Uint32Array byte offsets (id, field 0, field 1, ... per
// document); options as JSON strings parsed in src/sparse/options_json.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "bind_common.h"
#include "bind_neighbours.h"
#include "bind_saved.h"
#include "sparse/impacts.h"
#include "sparse/index.h"
#include "sparse/options_json.h"

namespace ragwasm::wasm {
namespace {

using sparse::Bm25Index;

Result<std::vector<std::string_view>> split_blob(std::string_view blob, const val& offsets_val) {
  const std::vector<std::uint32_t> off = emscripten::convertJSArrayToNumberVector<std::uint32_t>(offsets_val);
  if (off.empty() || off.front() != 0 || off.back() != blob.size()) {
    return make_error(ErrorCode::kInternal, "sparse binding: offsets do not cover the text blob");
  }
  std::vector<std::string_view> parts;
  parts.reserve(off.size() - 1);
  for (std::size_t i = 0; i + 1 < off.size(); ++i) {
    if (off[i + 1] < off[i]) return make_error(ErrorCode::kInternal, "sparse binding: offsets not ascending");
    parts.emplace_back(blob.data() + off[i], off[i + 1] - off[i]);
  }
  return parts;
}

val hits_to_val(const std::vector<sparse::Hit>& hits) {
  val ids = val::array();
  std::vector<double> scores;
  scores.reserve(hits.size());
  for (std::size_t i = 0; i < hits.size(); ++i) {
    ids.set(i, val(hits[i].id));
    scores.push_back(hits[i].score);
  }
  val r = val::object();
  r.set("ids", ids);
  r.set("scores", to_typed_array(scores));
  return r;
}

// Reads an index's BM25 impact table in batches (src/sparse/impacts.h). Holds a pointer to the
// index binding's core: web/src/retrieve/sparse.js stops reading once the index is disposed.
class ImpactReaderBinding {
 public:
  explicit ImpactReaderBinding(Bm25Index& index) : reader_(index) {}

  val ids() {
    return guard([&] {
      val out = val::array();
      const auto& ids = reader_.doc_ids();
      for (std::size_t i = 0; i < ids.size(); ++i) out.set(i, val(ids[i]));
      return reply_ok(out);
    });
  }

  val termCount() {
    return guard([&] { return reply_ok(val(static_cast<double>(reader_.term_count()))); });
  }

  val read(std::size_t first, std::size_t max_terms, std::size_t max_rows) {
    return guard([&] {
      auto r = reader_.read(first, max_terms, max_rows);
      if (!r.ok()) return reply_error(r.error());
      const auto& b = r.value();
      val terms = val::array();
      for (std::size_t i = 0; i < b.terms.size(); ++i) terms.set(i, val(b.terms[i]));
      val out = val::object();
      out.set("terms", terms);
      out.set("rowStart", to_typed_array(b.row_start));
      out.set("docs", to_typed_array(b.doc));
      out.set("impacts", to_typed_array(b.impact));
      out.set("next", val(static_cast<double>(b.next_term)));
      return reply_ok(out);
    });
  }

 private:
  sparse::ImpactReader reader_;
};

class Bm25IndexBinding {
 public:
  explicit Bm25IndexBinding(Bm25Index core) : core_(std::move(core)) {}

  // mode 0: add (DUPLICATE_ID on an existing id), 1: upsert. Stops at the first failing document;
  // the documents before it stay added. Returns the number added.
  val add(const Bytes& blob, val offsets, std::size_t fields_per_doc, const std::string& meta_json, int mode) {
    return add_view(blob, offsets, fields_per_doc, meta_json, mode);
  }

  // The same with the UTF-8 blob already in the WASM heap (written there by TextEncoder.encodeInto):
  // no JS byte-by-byte copy through Embind's std::string conversion.
  val add_at(std::uint32_t ptr, std::uint32_t len, val offsets, std::size_t fields_per_doc, const std::string& meta_json, int mode) {
    const std::string_view blob(reinterpret_cast<const char*>(static_cast<std::uintptr_t>(ptr)), len);
    return add_view(blob, offsets, fields_per_doc, meta_json, mode);
  }

  val add_view(std::string_view blob, const val& offsets, std::size_t fields_per_doc, const std::string& meta_json, int mode) {
    return guard([&] {
      auto parts = split_blob(blob, offsets);
      if (!parts.ok()) return reply_error(parts.error());
      const std::size_t per = 1 + fields_per_doc;
      if (per == 0 || parts.value().size() % per != 0) return reply_error("INTERNAL", "sparse binding: bad document layout");
      const std::size_t n = parts.value().size() / per;
      auto meta = sparse::parse_metadata(meta_json, n);
      if (!meta.ok()) return reply_error(meta.error());
      sparse::Document d;
      for (std::size_t i = 0; i < n; ++i) {
        d.id.assign(parts.value()[i * per]);
        d.fields.resize(fields_per_doc);
        for (std::size_t f = 0; f < fields_per_doc; ++f) d.fields[f].assign(parts.value()[i * per + 1 + f]);
        d.meta = std::move(meta.value()[i]);
        const Status st = mode == 1 ? core_.upsert(d) : core_.add(d);
        if (!st.ok()) {
          Error e = st.error();
          if (n > 1) e.message += " (documents[" + std::to_string(i) + "]; the " + std::to_string(i) + " before it were added)";
          return reply_error(e);
        }
      }
      return reply_ok(val(static_cast<double>(n)));
    });
  }

  val remove(const Bytes& blob, val offsets, bool ignore_missing) {
    return guard([&] {
      auto parts = split_blob(blob, offsets);
      if (!parts.ok()) return reply_error(parts.error());
      auto removed = core_.remove_many(parts.value(), ignore_missing);
      if (!removed.ok()) return reply_error(removed.error());
      return reply_ok(val(static_cast<double>(removed.value())));
    });
  }

  val search(const Bytes& query, const std::string& options_json) {
    return guard([&] {
      auto o = sparse::parse_search_options(options_json);
      if (!o.ok()) return reply_error(o.error());
      auto r = core_.search(query, o.value());
      if (!r.ok()) return reply_error(r.error());
      return reply_ok(hits_to_val(r.value()));
    });
  }

  // search() plus, per hit, the query terms and expansions it matched (Bm25Index::explain)
  val searchExplain(const Bytes& query, const std::string& options_json) {
    return guard([&] {
      auto o = sparse::parse_search_options(options_json);
      if (!o.ok()) return reply_error(o.error());
      auto r = core_.search(query, o.value());
      if (!r.ok()) return reply_error(r.error());
      auto ex = core_.explain(query, o.value(), r.value());
      if (!ex.ok()) return reply_error(ex.error());
      val out = hits_to_val(r.value());
      val rows = val::array();
      static const char* kinds[] = {"exact", "prefix", "fuzzy"};
      for (std::size_t i = 0; i < ex.value().size(); ++i) {
        val row = val::array();
        for (std::size_t j = 0; j < ex.value()[i].size(); ++j) {
          const auto& m = ex.value()[i][j];
          val t = val::object();
          t.set("query", val(m.query));
          t.set("term", val(m.term));
          t.set("kind", val(kinds[static_cast<int>(m.kind)]));
          t.set("distance", val(m.distance));
          t.set("weight", val(m.weight));
          t.set("score", val(m.score));
          row.set(j, t);
        }
        rows.set(i, row);
      }
      out.set("matches", rows);
      return reply_ok(out);
    });
  }

  val suggest(const Bytes& prefix, std::size_t k) {
    return guard([&] {
      auto r = core_.suggest(prefix, k);
      if (!r.ok()) return reply_error(r.error());
      val out = val::array();
      for (std::size_t i = 0; i < r.value().size(); ++i) {
        val t = val::object();
        t.set("term", val(r.value()[i].term));
        t.set("df", val(static_cast<double>(r.value()[i].df)));
        out.set(i, t);
      }
      return reply_ok(out);
    });
  }

  // search() with query expansion from `words` (options_json holds "expansion": {...}).
  val searchExpanded(const Bytes& query, const std::string& options_json, const WordNeighboursBinding& words) {
    return guard([&] {
      auto o = sparse::parse_search_options(options_json);
      if (!o.ok()) return reply_error(o.error());
      o.value().similar_words = words.source();
      auto r = core_.search(query, o.value());
      if (!r.ok()) return reply_error(r.error());
      return reply_ok(hits_to_val(r.value()));
    });
  }

  // The expansion terms searchExpanded adds: [{term, from, word, similarity, weight}].
  val expansionTerms(const Bytes& query, const std::string& options_json, const WordNeighboursBinding& words) {
    return guard([&] {
      auto o = sparse::parse_search_options(options_json);
      if (!o.ok()) return reply_error(o.error());
      o.value().similar_words = words.source();
      auto r = core_.expansion_terms(query, o.value());
      if (!r.ok()) return reply_error(r.error());
      val out = val::array();
      for (std::size_t i = 0; i < r.value().size(); ++i) {
        const sparse::ExpansionTerm& e = r.value()[i];
        val t = val::object();
        t.set("term", val(e.term));
        t.set("from", val(e.from));
        t.set("word", val(e.word));
        t.set("similarity", val(e.similarity));
        t.set("weight", val(e.weight));
        out.set(i, t);
      }
      return reply_ok(out);
    });
  }

  // Fast path for the common case: k only, no JSON.
  val searchK(const Bytes& query, std::size_t k) {
    return guard([&] {
      sparse::SearchOptions o;
      o.k = k;
      auto r = core_.search(query, o);
      if (!r.ok()) return reply_error(r.error());
      return reply_ok(hits_to_val(r.value()));
    });
  }

  val expandQuery(const Bytes& query, const std::string& options_json) {
    return guard([&] {
      auto o = sparse::parse_search_options(options_json);
      if (!o.ok()) return reply_error(o.error());
      auto r = core_.expand_query(query, o.value());
      if (!r.ok()) return reply_error(r.error());
      val out = val::array();
      for (std::size_t i = 0; i < r.value().size(); ++i) {
        val t = val::object();
        t.set("term", val(r.value()[i].term));
        t.set("weight", val(r.value()[i].weight));
        out.set(i, t);
      }
      return reply_ok(out);
    });
  }

  val analyze(const Bytes& text) {
    return guard([&] {
      val out = val::array();
      const auto toks = core_.analyze(text);
      for (std::size_t i = 0; i < toks.size(); ++i) out.set(i, val(toks[i]));
      return reply_ok(out);
    });
  }

  // Bm25Index::find_term_mismatch over a packed UTF-8 blob already in the heap (per item: id, then
  // texts_per_item texts) -> null or {item, analyzed, held}
  val termMismatchAt(std::uint32_t ptr, std::uint32_t len, val offsets, std::size_t texts_per_item) {
    return guard([&] {
      const std::string_view blob(reinterpret_cast<const char*>(static_cast<std::uintptr_t>(ptr)), len);
      auto parts = split_blob(blob, offsets);
      if (!parts.ok()) return reply_error(parts.error());
      if (parts.value().size() % (texts_per_item + 1) != 0) return reply_error("INTERNAL", "sparse binding: bad item layout");
      const auto r = core_.find_term_mismatch(parts.value(), texts_per_item);
      if (!r) return reply_ok(val::null());
      val out = val::object();
      out.set("item", val(static_cast<double>(r->item)));
      out.set("analyzed", val(static_cast<double>(r->analyzed)));
      out.set("held", val(static_cast<double>(r->held)));
      return reply_ok(out);
    });
  }

  val impactReader() {
    return guard([&] { return reply_ok(val(ImpactReaderBinding(core_))); });
  }

  val queryTerms(const Bytes& query) {
    return guard([&] {
      val out = val::array();
      const auto q = sparse::query_weights(core_, query);
      for (std::size_t i = 0; i < q.size(); ++i) {
        val t = val::object();
        t.set("term", val(q[i].term));
        t.set("weight", val(q[i].weight));
        out.set(i, t);
      }
      return reply_ok(out);
    });
  }

  val has(const Bytes& id) {
    return guard([&] { return reply_ok(val(core_.contains(id))); });
  }

  val compact() {
    return guard([&] {
      core_.compact();
      return reply_ok(val::undefined());
    });
  }

  val save() {
    return guard([&] {
      const std::string b = core_.save();
      return reply_ok(val(emscripten::typed_memory_view(b.size(), reinterpret_cast<const std::uint8_t*>(b.data()))).call<val>("slice"));
    });
  }

  // save() kept in the heap (Collection.save(): checked in place, read out in pieces)
  val saveSection() {
    return guard([&] { return reply_ok(val(SavedSection(core_.save()))); });
  }

  val stats() {
    return guard([&] {
      const auto s = core_.stats();
      val r = val::object();
      r.set("documents", val(static_cast<double>(s.documents)));
      r.set("deleted", val(static_cast<double>(s.deleted)));
      r.set("terms", val(static_cast<double>(s.terms)));
      r.set("avgLength", val(s.avg_length));
      r.set("postingsBytes", val(static_cast<double>(s.postings_bytes)));
      r.set("memoryBytes", val(static_cast<double>(s.memory_bytes)));
      return reply_ok(r);
    });
  }

  val documentFrequency(const Bytes& term) {
    return guard([&] { return reply_ok(val(static_cast<double>(core_.document_frequency(term)))); });
  }

  // {documents, fieldLengths: Float64Array, df: Uint32Array, terms: Uint8Array (UTF-8, concatenated),
  // termOffsets: Uint32Array (term i = terms[termOffsets[i], termOffsets[i + 1]))}
  val collectionStats() {
    return guard([&] {
      const auto s = core_.collection_stats();
      const auto terms = core_.terms();
      std::vector<double> lens(s.field_lengths.begin(), s.field_lengths.end());
      std::string blob;
      std::vector<std::uint32_t> offsets{0};
      offsets.reserve(terms.size() + 1);
      for (const auto& t : terms) {
        blob += t;
        offsets.push_back(static_cast<std::uint32_t>(blob.size()));
      }
      val r = val::object();
      r.set("documents", val(static_cast<double>(s.documents)));
      r.set("fieldLengths", to_typed_array(lens));
      r.set("df", to_typed_array(s.df));
      r.set("terms", val(emscripten::typed_memory_view(blob.size(), reinterpret_cast<const std::uint8_t*>(blob.data()))).call<val>("slice"));
      r.set("termOffsets", to_typed_array(offsets));
      return reply_ok(r);
    });
  }

  // documents and fieldLengths are integers checked by the caller (web/src/parallel/bm25-shard.js).
  val setGlobalStats(double documents, const val& field_lengths, const val& df) {
    return guard([&] {
      sparse::CollectionStats g;
      g.documents = static_cast<std::uint64_t>(documents);
      for (double v : emscripten::convertJSArrayToNumberVector<double>(field_lengths)) g.field_lengths.push_back(static_cast<std::uint64_t>(v));
      g.df = emscripten::convertJSArrayToNumberVector<std::uint32_t>(df);
      const Status st = core_.set_global_stats(g);
      if (!st.ok()) return reply_error(st.error());
      return reply_ok(val::undefined());
    });
  }

  val fieldNames() {
    return guard([&] {
      val out = val::array();
      const auto& f = core_.options().fields;
      for (std::size_t i = 0; i < f.size(); ++i) out.set(i, val(f[i].name));
      return reply_ok(out);
    });
  }

 private:
  Bm25Index core_;
};

val create_index(const std::string& options_json) {
  return guard([&] {
    auto o = sparse::parse_index_options(options_json);
    if (!o.ok()) return reply_error(o.error());
    auto r = Bm25Index::create(o.value());
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(Bm25IndexBinding(std::move(r).value())));
  });
}

val load_index(const Bytes& bytes) {
  return guard([&] {
    auto r = Bm25Index::load(bytes);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(Bm25IndexBinding(std::move(r).value())));
  });
}

// Bm25Index::check: saved bytes checked without building the index; ids go to on_ids in batches.
// -> {fields: string[], documents}
val check_view(std::string_view bytes, val on_ids) {
  return guard([&] {
    IdBatches batches(on_ids);
    auto r = Bm25Index::check(bytes, [&](std::string_view id) { batches.add(id); });
    if (!r.ok()) return reply_error(r.error());
    batches.flush();
    val fields = val::array();
    for (const auto& f : r.value().fields) fields.call<void>("push", f);
    val out = val::object();
    out.set("fields", fields);
    out.set("documents", static_cast<double>(r.value().documents));
    return reply_ok(out);
  });
}

val check_saved(const Bytes& bytes, val on_ids) { return check_view(bytes, on_ids); }

// the same check on a section kept in the heap by saveSection() (read in place)
val check_section(const SavedSection& section, val on_ids) { return check_view(section.view(), on_ids); }

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_sparse) {
  using namespace ragwasm::wasm;
  emscripten::class_<Bm25IndexBinding>("Bm25IndexBinding")
      .function("add", &Bm25IndexBinding::add)
      .function("addAt", &Bm25IndexBinding::add_at)
      .function("remove", &Bm25IndexBinding::remove)
      .function("search", &Bm25IndexBinding::search)
      .function("searchK", &Bm25IndexBinding::searchK)
      .function("searchExplain", &Bm25IndexBinding::searchExplain)
      .function("suggest", &Bm25IndexBinding::suggest)
      .function("expandQuery", &Bm25IndexBinding::expandQuery)
      .function("searchExpanded", &Bm25IndexBinding::searchExpanded)
      .function("expansionTerms", &Bm25IndexBinding::expansionTerms)
      .function("analyze", &Bm25IndexBinding::analyze)
      .function("termMismatchAt", &Bm25IndexBinding::termMismatchAt)
      .function("has", &Bm25IndexBinding::has)
      .function("compact", &Bm25IndexBinding::compact)
      .function("save", &Bm25IndexBinding::save)
      .function("saveSection", &Bm25IndexBinding::saveSection)
      .function("stats", &Bm25IndexBinding::stats)
      .function("documentFrequency", &Bm25IndexBinding::documentFrequency)
      .function("fieldNames", &Bm25IndexBinding::fieldNames)
      .function("collectionStats", &Bm25IndexBinding::collectionStats)
      .function("setGlobalStats", &Bm25IndexBinding::setGlobalStats)
      .function("impactReader", &Bm25IndexBinding::impactReader)
      .function("queryTerms", &Bm25IndexBinding::queryTerms);
  emscripten::class_<ImpactReaderBinding>("ImpactReaderBinding")
      .function("ids", &ImpactReaderBinding::ids)
      .function("termCount", &ImpactReaderBinding::termCount)
      .function("read", &ImpactReaderBinding::read);
  emscripten::function("sparse_createIndex", &create_index);
  emscripten::function("sparse_loadIndex", &load_index);
  emscripten::function("sparse_checkSaved", &check_saved);
  emscripten::function("sparse_checkSection", &check_section);
}
