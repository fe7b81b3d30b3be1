// Bindings for src/dense: VectorIndex (flat / HNSW; f32 / int8 / binary). Ids cross as one UTF-8
// byte buffer plus a Uint32Array of lengths; vectors as a Float32Array copied once into a
// C++-owned buffer (allocated and freed here) through TypedArray.set.
#include <cstdint>
#include <string>
#include <vector>

#include "bind_common.h"
#include "bind_saved.h"
#include "dense/kernels.h"
#include "dense/vector_index.h"

namespace ragwasm::wasm {
namespace {

using dense::VectorIndex;

// Copies a JS typed array (Float32Array, Uint8Array, Uint32Array) into a new vector.
template <class T>
std::vector<T> copy_typed(const val& array) {
  std::vector<T> out(array["length"].as<std::size_t>());
  if (!out.empty()) val(emscripten::typed_memory_view(out.size(), out.data())).call<void>("set", array);
  return out;
}

std::vector<std::string> split_ids(const Bytes& bytes, const val& lens_js) {
  const auto lens = copy_typed<std::uint32_t>(lens_js);
  std::vector<std::string> ids;
  ids.reserve(lens.size());
  std::size_t at = 0;
  for (std::uint32_t n : lens) {
    if (n > bytes.size() - at) break;  // web/src/retrieve/dense.js builds both from the same ids
    ids.emplace_back(bytes, at, n);
    at += n;
  }
  return ids;
}

// {bytes: Uint8Array, lens: Uint32Array} for a list of ids.
val ids_reply(const std::vector<const std::string*>& ids) {
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint32_t> lens;
  lens.reserve(ids.size());
  for (const std::string* id : ids) {
    bytes.insert(bytes.end(), id->begin(), id->end());
    lens.push_back(static_cast<std::uint32_t>(id->size()));
  }
  val out = val::object();
  out.set("bytes", to_typed_array(bytes));
  out.set("lens", to_typed_array(lens));
  return out;
}

val options_object(const dense::IndexOptions& o) {
  val v = val::object();
  v.set("dimension", o.dimension);
  v.set("metric", std::string(dense::metric_name(o.metric)));
  v.set("storage", std::string(dense::storage_name(o.storage)));
  v.set("binaryRescore", std::string(dense::storage_name(o.binary_rescore)));
  v.set("index", std::string(o.kind == dense::IndexKind::kHnsw ? "hnsw" : "flat"));
  val h = val::object();
  h.set("M", o.hnsw.m);
  h.set("efConstruction", o.hnsw.ef_construction);
  h.set("efSearch", o.hnsw.ef_search);
  h.set("seed", static_cast<double>(o.hnsw.seed));
  v.set("hnsw", h);
  return v;
}

class VectorIndexBinding {
 public:
  explicit VectorIndexBinding(VectorIndex core) : core_(std::move(core)) {}

  val add(const Bytes& id_bytes, val lens, val vectors) {
    return guard([&] {
      const auto ids = split_ids(id_bytes, lens);
      const auto data = copy_typed<float>(vectors);
      Status s = core_.add(ids, data.data(), data.size());
      if (!s.ok()) return reply_error(s.error());
      return reply_ok(val(static_cast<double>(core_.size())));
    });
  }

  val remove(const Bytes& id_bytes, val lens) {
    return guard([&] {
      Status s = core_.remove(split_ids(id_bytes, lens));
      if (!s.ok()) return reply_error(s.error());
      return reply_ok(val(static_cast<double>(core_.size())));
    });
  }

  // mask: a Uint8Array of slotCount() entries or null. Reply: {bytes, lens, scores}.
  val search(val query, std::uint32_t k, std::uint32_t ef, std::uint32_t rescore, val mask, bool exact) const {
    return guard([&] {
      const auto q = copy_typed<float>(query);
      std::vector<std::uint8_t> allow;
      dense::SearchOptions o;
      o.k = k;
      o.ef_search = ef;
      o.rescore = rescore;
      if (!mask.isNull() && !mask.isUndefined()) {
        allow = copy_typed<std::uint8_t>(mask);
        o.allow = allow.data();
        o.allow_size = allow.size();
      }
      auto r = exact ? core_.search_exact(q.data(), q.size(), o) : core_.search(q.data(), q.size(), o);
      if (!r.ok()) return reply_error(r.error());
      std::vector<const std::string*> ids;
      std::vector<float> scores;
      for (const dense::Hit& h : r.value()) {
        ids.push_back(&core_.id(h.slot));
        scores.push_back(h.score);
      }
      val out = ids_reply(ids);
      out.set("scores", to_typed_array(scores));
      return reply_ok(out);
    });
  }

  // queries: a Float32Array of count rows; mask as search. Reply: {bytes, lens, scores, counts}
  // (counts[i] hits of query i, in order).
  val search_many(val queries, std::uint32_t count, std::uint32_t k, val mask) const {
    return guard([&] {
      const auto q = copy_typed<float>(queries);
      std::vector<std::uint8_t> allow;
      dense::SearchOptions o;
      o.k = k;
      if (!mask.isNull() && !mask.isUndefined()) {
        allow = copy_typed<std::uint8_t>(mask);
        o.allow = allow.data();
        o.allow_size = allow.size();
      }
      const std::size_t length = count == 0 ? 0 : q.size() / count;
      auto r = core_.search_exact_many(q.data(), count, length, o);
      if (!r.ok()) return reply_error(r.error());
      std::vector<const std::string*> ids;
      std::vector<float> scores;
      std::vector<std::uint32_t> counts;
      for (const auto& hits : r.value()) {
        counts.push_back(static_cast<std::uint32_t>(hits.size()));
        for (const dense::Hit& h : hits) {
          ids.push_back(&core_.id(h.slot));
          scores.push_back(h.score);
        }
      }
      val out = ids_reply(ids);
      out.set("scores", to_typed_array(scores));
      out.set("counts", to_typed_array(counts));
      return reply_ok(out);
    });
  }

  // Live ids with their slots, for filter masks built in JS: {slots, bytes, lens}.
  val live_ids() const {
    return guard([&] {
      const std::vector<std::uint32_t> slots = core_.live_slots();
      std::vector<const std::string*> ids;
      ids.reserve(slots.size());
      for (std::uint32_t s : slots) ids.push_back(&core_.id(s));
      val out = ids_reply(ids);
      out.set("slots", to_typed_array(slots));
      return reply_ok(out);
    });
  }

  val mask_for_ids(const Bytes& id_bytes, val lens) const {
    return guard([&] { return reply_ok(to_typed_array(core_.mask_for_ids(split_ids(id_bytes, lens)))); });
  }

  val has(const Bytes& id) const {
    return guard([&] { return reply_ok(val(core_.contains(id))); });
  }

  val size() const {
    return guard([&] { return reply_ok(val(static_cast<double>(core_.size()))); });
  }
  val compact() {
    return guard([&] { return reply_ok(val(static_cast<double>(core_.compact()))); });
  }
  val slot_count() const {
    return guard([&] { return reply_ok(val(static_cast<double>(core_.slot_count()))); });
  }
  val options() const {
    return guard([&] { return reply_ok(options_object(core_.options())); });
  }

  // Bench reference pass (tests/bench/suites/dense.mjs): which = "kernel" (the single-row kernel
  // over every stored row, no top-k), "batch" (the scan's batch kernel, no top-k) or "read" (a
  // read-only SIMD pass over the same bytes). Reply: {checksum, bytes}.
  val reference_pass(val query, std::string which) const {
    return guard([&] {
      const auto q = copy_typed<float>(query);
      const dense::ReferencePass pass = which == "read"    ? dense::ReferencePass::kRead
                                        : which == "batch" ? dense::ReferencePass::kBatch
                                                           : dense::ReferencePass::kKernel;
      auto r = core_.reference_pass(q.data(), q.size(), pass);
      if (!r.ok()) return reply_error(r.error());
      val out = val::object();
      out.set("checksum", r.value().checksum);
      out.set("bytes", static_cast<double>(r.value().bytes));
      return reply_ok(out);
    });
  }

  val save() const {
    return guard([&] { return reply_ok(to_typed_array(core_.save())); });
  }

  // save() kept in the heap (Collection.save(): checked in place, read out in pieces)
  val saveSection() const {
    return guard([&] { return reply_ok(val(SavedSection(core_.save()))); });
  }

 private:
  VectorIndex core_;
};

dense::Metric parse_metric(const std::string& s) {
  return s == "dot" ? dense::Metric::kDot : s == "l2" ? dense::Metric::kL2 : dense::Metric::kCosine;
}
dense::Storage parse_storage(const std::string& s) {
  return s == "int8" ? dense::Storage::kInt8 : s == "binary" ? dense::Storage::kBinary : dense::Storage::kF32;
}

// Strings are enum names already checked by web/src/retrieve/dense.js.
val create_index(std::uint32_t dimension, std::string metric, std::string storage, std::string binary_rescore,
                 std::string kind, std::uint32_t m, std::uint32_t ef_construction, std::uint32_t ef_search,
                 double seed) {
  return guard([&] {
    dense::IndexOptions o;
    o.dimension = dimension;
    o.metric = parse_metric(metric);
    o.storage = parse_storage(storage);
    o.binary_rescore = parse_storage(binary_rescore);
    o.kind = kind == "hnsw" ? dense::IndexKind::kHnsw : dense::IndexKind::kFlat;
    o.hnsw.m = m;
    o.hnsw.ef_construction = ef_construction;
    o.hnsw.ef_search = ef_search;
    o.hnsw.seed = static_cast<std::uint64_t>(seed);
    auto r = VectorIndex::create(o);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(VectorIndexBinding(std::move(r).value())));
  });
}

val load_index(const Bytes& bytes) {
  return guard([&] {
    auto r = VectorIndex::load(bytes);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(VectorIndexBinding(std::move(r).value())));
  });
}

// VectorIndex::check: saved bytes checked without building the index; live ids go to on_ids in
// batches. -> {dimension, size}
val check_view(std::string_view bytes, val on_ids) {
  return guard([&] {
    IdBatches batches(on_ids);
    auto r = VectorIndex::check(bytes, [&](std::string_view id) { batches.add(id); });
    if (!r.ok()) return reply_error(r.error());
    batches.flush();
    val out = val::object();
    out.set("dimension", r.value().dimension);
    out.set("size", static_cast<double>(r.value().live));
    return reply_ok(out);
  });
}

val check_saved(const Bytes& bytes, val on_ids) { return check_view(bytes, on_ids); }

// the same check on a section kept in the heap by saveSection() (read in place)
val check_section(const SavedSection& section, val on_ids) { return check_view(section.view(), on_ids); }

val simd_enabled() {
  return guard([] { return reply_ok(val(dense::simd_enabled())); });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_dense) {
  using namespace ragwasm::wasm;
  emscripten::class_<VectorIndexBinding>("VectorIndexBinding")
      .function("add", &VectorIndexBinding::add)
      .function("remove", &VectorIndexBinding::remove)
      .function("search", &VectorIndexBinding::search)
      .function("searchMany", &VectorIndexBinding::search_many)
      .function("liveIds", &VectorIndexBinding::live_ids)
      .function("maskForIds", &VectorIndexBinding::mask_for_ids)
      .function("has", &VectorIndexBinding::has)
      .function("size", &VectorIndexBinding::size)
      .function("slotCount", &VectorIndexBinding::slot_count)
      .function("compact", &VectorIndexBinding::compact)
      .function("options", &VectorIndexBinding::options)
      .function("save", &VectorIndexBinding::save)
      .function("saveSection", &VectorIndexBinding::saveSection)
      .function("referencePass", &VectorIndexBinding::reference_pass);
  emscripten::function("dense_createIndex", &create_index);
  emscripten::function("dense_loadIndex", &load_index);
  emscripten::function("dense_checkSaved", &check_saved);
  emscripten::function("dense_checkSection", &check_section);
  emscripten::function("dense_simdEnabled", &simd_enabled);
}
