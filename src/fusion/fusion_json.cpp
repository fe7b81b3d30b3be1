// JSON requests/replies for fusion, tuning and shaping (see fusion_json.h).
#include "fusion/fusion_json.h"

#include "fusion/shaping.h"
#include "fusion/tune.h"

namespace ragwasm::fusion {

using jsonr::json;

namespace {

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Parallel "ids"/"scores" arrays of an object at path.
Result<std::vector<ScoredId>> scored_ids(const json& obj, std::string_view path) {
  const auto ids_it = obj.find("ids");
  const auto sc_it = obj.find("scores");
  if (ids_it == obj.end()) return make_error(ErrorCode::kInvalidArgument, jsonr::key_path(path, "ids") + ": missing");
  if (sc_it == obj.end()) return make_error(ErrorCode::kInvalidArgument, jsonr::key_path(path, "scores") + ": missing");
  const std::string ip = jsonr::key_path(path, "ids"), sp = jsonr::key_path(path, "scores");
  RAGWASM_TRY(jsonr::array(*ids_it, ip));
  RAGWASM_TRY(jsonr::array(*sc_it, sp));
  if (ids_it->size() != sc_it->size()) {
    return make_error(ErrorCode::kInvalidArgument, sp + ": expected " + std::to_string(ids_it->size()) +
                                                       " scores (one per id), got " + std::to_string(sc_it->size()));
  }
  std::vector<ScoredId> out(ids_it->size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto id = jsonr::string((*ids_it)[i], jsonr::index_path(ip, i), false);
    if (!id.ok()) return id.error();
    auto s = jsonr::number((*sc_it)[i], jsonr::index_path(sp, i));
    if (!s.ok()) return s.error();
    out[i] = ScoredId{std::move(id).value(), s.value()};
  }
  return out;
}

json hits_to_json(const std::vector<FusedHit>& hits, const std::vector<RankedList>& lists) {
  json arr = json::array();
  for (const auto& h : hits) {
    json c = json::array();
    for (std::size_t i = 0; i < h.contributions.size(); ++i) {
      const auto& x = h.contributions[i];
      c.push_back({{"retriever", lists[i].retriever}, {"present", x.present}, {"rank", x.rank}, {"raw", x.raw},
                   {"normalized", x.normalized}, {"weight", x.weight}, {"contribution", x.contribution}});
    }
    arr.push_back({{"id", h.id}, {"score", h.score}, {"rank", h.rank}, {"presentIn", h.present_in}, {"contributions", std::move(c)}});
  }
  return arr;
}

json diagnostics_to_json(const Diagnostics& d, const std::vector<RankedList>& lists) {
  json legs = json::array(), pairs = json::array();
  for (const auto& l : d.legs) legs.push_back({{"retriever", l.retriever}, {"size", l.size}, {"maxZ", l.max_z}});
  for (const auto& p : d.pairs) {
    pairs.push_back({{"a", lists[p.a].retriever}, {"b", lists[p.b].retriever}, {"overlap", p.overlap},
                     {"shared", p.shared}, {"spearman", p.spearman}});
  }
  return {{"k", d.k}, {"legs", legs}, {"pairs", pairs}, {"warnings", d.warnings}};
}

}  // namespace

Result<std::vector<RankedList>> lists_from_json(const json& j, std::string_view path) {
  RAGWASM_TRY(jsonr::array(j, path));
  std::vector<RankedList> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string p = jsonr::index_path(path, i);
    RAGWASM_TRY(jsonr::expect_object(j[i], p, {"retriever", "ids", "scores"}));
    RankedList l;
    const auto r = j[i].find("retriever");
    if (r == j[i].end()) return make_error(ErrorCode::kInvalidArgument, jsonr::key_path(p, "retriever") + ": missing");
    auto name = jsonr::string(*r, jsonr::key_path(p, "retriever"), false);
    if (!name.ok()) return name.error();
    l.retriever = std::move(name).value();
    auto hits = scored_ids(j[i], p);
    if (!hits.ok()) return hits.error();
    l.hits = std::move(hits).value();
    out.push_back(std::move(l));
  }
  return out;
}

Result<FuseOptions> options_from_json(const json& j, std::string_view path, std::size_t num_lists) {
  std::string mode = "hybrid";
  if (auto it = j.find("mode"); it != j.end()) {
    auto m = jsonr::one_of(*it, jsonr::key_path(path, "mode"), {"hybrid", "rrf", "convex", "combsum", "combmnz"});
    if (!m.ok()) return m.error();
    mode = m.value();
  }
  std::size_t primary = 0;
  if (auto it = j.find("primary"); it != j.end()) {
    auto p = jsonr::integer(*it, jsonr::key_path(path, "primary"), 0, num_lists == 0 ? 0 : num_lists - 1);
    if (!p.ok()) return p.error();
    primary = static_cast<std::size_t>(p.value());
  }
  FuseOptions o;
  if (mode == "hybrid") o = default_hybrid_options(num_lists, primary);
  else if (mode == "rrf") o.mode = Mode::kRrf;
  else if (mode == "convex") o.mode = Mode::kConvex;
  else if (mode == "combsum") o.mode = Mode::kCombSum;
  else o.mode = Mode::kCombMnz;
  if (auto it = j.find("normalization"); it != j.end()) {
    auto n = jsonr::one_of(*it, jsonr::key_path(path, "normalization"), {"minmax", "zscore", "rank"});
    if (!n.ok()) return n.error();
    o.normalization = n.value() == "minmax" ? Normalization::kMinMax : n.value() == "zscore" ? Normalization::kZScore : Normalization::kRank;
  }
  if (auto it = j.find("weights"); it != j.end()) {
    const std::string wp = jsonr::key_path(path, "weights");
    RAGWASM_TRY(jsonr::array(*it, wp));
    if (it->size() != num_lists) {
      return make_error(ErrorCode::kInvalidArgument, wp + ": expected " + std::to_string(num_lists) +
                                                         " weights (one per list), got " + std::to_string(it->size()));
    }
    o.weights.clear();
    double total = 0.0;
    for (std::size_t i = 0; i < it->size(); ++i) {
      auto w = jsonr::number((*it)[i], jsonr::index_path(wp, i), 0.0);
      if (!w.ok()) return w.error();
      o.weights.push_back(w.value());
      total += w.value();
    }
    if (o.mode == Mode::kConvex && total <= 0) {
      return make_error(ErrorCode::kInvalidArgument, wp + ": convex combination needs at least one weight > 0, got all 0");
    }
  }
  if (o.weights.empty()) o.weights.assign(num_lists, 1.0);  // explicit, so the options echo round-trips
  if (auto it = j.find("k"); it != j.end()) {
    auto k = jsonr::number(*it, jsonr::key_path(path, "k"), 0.0);
    if (!k.ok()) return k.error();
    o.rrf_k = k.value();
  }
  if (auto it = j.find("topK"); it != j.end()) {
    auto k = jsonr::integer(*it, jsonr::key_path(path, "topK"), 0, 100000000);
    if (!k.ok()) return k.error();
    o.top_k = static_cast<std::size_t>(k.value());
  }
  return o;
}

json options_to_json(const FuseOptions& o) {
  json j = {{"mode", mode_name(o.mode)}, {"normalization", normalization_name(o.normalization)}, {"weights", o.weights}, {"k", o.rrf_k}};
  if (o.top_k > 0) j["topK"] = o.top_k;
  return j;
}

Result<std::string> fuse_json(std::string_view request) {
  auto pj = jsonr::parse(request, "fuse request");
  if (!pj.ok()) return pj.error();
  const json& j = pj.value();
  RAGWASM_TRY(jsonr::expect_object(j, "", {"lists", "mode", "normalization", "weights", "k", "topK", "primary", "diagnosticsK", "minOverlap"}));
  auto it = j.find("lists");
  if (it == j.end()) return make_error(ErrorCode::kInvalidArgument, "lists: missing");
  auto lists = lists_from_json(*it, "lists");
  if (!lists.ok()) return lists.error();
  if (lists.value().empty()) return make_error(ErrorCode::kInvalidArgument, "lists: expected at least one ranked list, got 0");
  auto o = options_from_json(j, "", lists.value().size());
  if (!o.ok()) return o.error();
  std::size_t dk = 10;
  double min_overlap = 0.2;
  if (auto d = j.find("diagnosticsK"); d != j.end()) {
    auto v = jsonr::integer(*d, "diagnosticsK", 1, 1000000);
    if (!v.ok()) return v.error();
    dk = static_cast<std::size_t>(v.value());
  }
  if (auto d = j.find("minOverlap"); d != j.end()) {
    auto v = jsonr::number(*d, "minOverlap", 0.0, 1.0);
    if (!v.ok()) return v.error();
    min_overlap = v.value();
  }
  auto hits = fuse(lists.value(), o.value());
  if (!hits.ok()) return hits.error();
  json out = {{"options", options_to_json(o.value())},
              {"hits", hits_to_json(hits.value(), lists.value())},
              {"diagnostics", diagnostics_to_json(diagnose(lists.value(), dk, min_overlap), lists.value())}};
  return dump(out);
}

Result<std::string> tune_json(std::string_view request) {
  auto pj = jsonr::parse(request, "tune request");
  if (!pj.ok()) return pj.error();
  const json& j = pj.value();
  RAGWASM_TRY(jsonr::expect_object(j, "", {"queries", "qrels", "grid", "cutoff"}));
  auto qit = j.find("queries");
  if (qit == j.end()) return make_error(ErrorCode::kInvalidArgument, "queries: missing");
  RAGWASM_TRY(jsonr::array(*qit, "queries"));
  std::vector<LabelledQuery> queries;
  for (std::size_t q = 0; q < qit->size(); ++q) {
    const std::string p = jsonr::index_path("queries", q);
    RAGWASM_TRY(jsonr::expect_object((*qit)[q], p, {"queryId", "lists"}));
    LabelledQuery lq;
    auto id_it = (*qit)[q].find("queryId");
    if (id_it == (*qit)[q].end()) return make_error(ErrorCode::kInvalidArgument, p + ".queryId: missing");
    auto id = jsonr::string(*id_it, p + ".queryId", false);
    if (!id.ok()) return id.error();
    lq.query_id = std::move(id).value();
    auto l_it = (*qit)[q].find("lists");
    if (l_it == (*qit)[q].end()) return make_error(ErrorCode::kInvalidArgument, p + ".lists: missing");
    auto lists = lists_from_json(*l_it, p + ".lists");
    if (!lists.ok()) return lists.error();
    lq.lists = std::move(lists).value();
    queries.push_back(std::move(lq));
  }
  Qrels qrels;
  auto rit = j.find("qrels");
  if (rit == j.end()) return make_error(ErrorCode::kInvalidArgument, "qrels: missing");
  if (!rit->is_object()) return jsonr::type_error("qrels", "an object {queryId: {docId: relevance}}", *rit);
  for (auto q = rit->begin(); q != rit->end(); ++q) {
    const std::string p = jsonr::key_path("qrels", q.key());
    if (!q.value().is_object()) return jsonr::type_error(p, "an object {docId: relevance}", q.value());
    auto& rels = qrels[q.key()];
    for (auto d = q.value().begin(); d != q.value().end(); ++d) {
      const std::string dp = jsonr::key_path(p, d.key());
      if (!d.value().is_number_integer() && !d.value().is_number_unsigned()) return jsonr::type_error(dp, "an integer relevance", d.value());
      const auto v = d.value().get<std::int64_t>();
      if (v < -1000000 || v > 1000000) return jsonr::type_error(dp, "an integer in [-1000000, 1000000]", d.value());
      rels[d.key()] = static_cast<int>(v);
    }
  }
  const std::size_t n = queries.empty() ? 0 : queries[0].lists.size();
  std::vector<FuseOptions> grid;
  if (auto git = j.find("grid"); git != j.end()) {
    RAGWASM_TRY(jsonr::array(*git, "grid"));
    for (std::size_t g = 0; g < git->size(); ++g) {
      const std::string p = jsonr::index_path("grid", g);
      RAGWASM_TRY(jsonr::expect_object((*git)[g], p, {"mode", "normalization", "weights", "k", "primary"}));
      auto o = options_from_json((*git)[g], p, n);
      if (!o.ok()) return o.error();
      grid.push_back(o.value());
    }
  } else {
    grid = default_grid(n);
  }
  std::size_t cutoff = 10;
  if (auto c = j.find("cutoff"); c != j.end()) {
    auto v = jsonr::integer(*c, "cutoff", 1, 1000000);
    if (!v.ok()) return v.error();
    cutoff = static_cast<std::size_t>(v.value());
  }
  auto r = tune(queries, qrels, grid, nullptr, cutoff);
  if (!r.ok()) return r.error();
  const TuneResult& t = r.value();
  json table = json::array();
  for (const auto& row : t.table) {
    json o = options_to_json(row.options);
    o["objective"] = row.objective;
    table.push_back(std::move(o));
  }
  json out = {{"best", options_to_json(t.best)}, {"bestIndex", t.best_index}, {"bestObjective", t.best_objective},
              {"queries", t.queries}, {"singleLeg", t.single_leg}, {"table", std::move(table)},
              {"metric", "ndcg_cut_" + std::to_string(cutoff)},
              {"recommended", options_to_json(t.recommended)},
              {"recommendedObjective", t.recommended_objective},
              {"recommendation", t.recommendation},
              {"pairedT", t.paired_t}};
  return dump(out);
}

Result<std::string> mmr_json(std::string_view request, const std::vector<float>& vectors, std::size_t dim,
                             const std::vector<double>& similarity) {
  auto pj = jsonr::parse(request, "mmr request");
  if (!pj.ok()) return pj.error();
  const json& j = pj.value();
  RAGWASM_TRY(jsonr::expect_object(j, "", {"ids", "scores", "lambda", "k"}));
  auto c = scored_ids(j, "");
  if (!c.ok()) return c.error();
  MmrOptions o;
  if (auto it = j.find("lambda"); it != j.end()) {
    auto v = jsonr::number(*it, "lambda", 0.0, 1.0);
    if (!v.ok()) return v.error();
    o.lambda = v.value();
  }
  if (auto it = j.find("k"); it != j.end()) {
    auto v = jsonr::integer(*it, "k", 1, 100000000);
    if (!v.ok()) return v.error();
    o.k = static_cast<std::size_t>(v.value());
  }
  auto r = dim > 0 ? mmr_vectors(c.value(), vectors, dim, o) : mmr_matrix(c.value(), similarity, o);
  if (!r.ok()) return r.error();
  json arr = json::array();
  for (const auto& h : r.value()) {
    arr.push_back({{"id", h.id}, {"score", h.score}, {"mmr", h.mmr}, {"maxSimilarity", h.max_similarity}, {"inputIndex", h.input_index}});
  }
  return dump(arr);
}

Result<std::string> expand_json(std::string_view request) {
  auto pj = jsonr::parse(request, "expand request");
  if (!pj.ok()) return pj.error();
  const json& j = pj.value();
  RAGWASM_TRY(jsonr::expect_object(j, "", {"hits", "chunks", "before", "after"}));
  auto hit = j.find("hits");
  if (hit == j.end()) return make_error(ErrorCode::kInvalidArgument, "hits: missing");
  RAGWASM_TRY(jsonr::expect_object(*hit, "hits", {"ids", "scores"}));
  auto hits = scored_ids(*hit, "hits");
  if (!hits.ok()) return hits.error();
  auto cit = j.find("chunks");
  if (cit == j.end()) return make_error(ErrorCode::kInvalidArgument, "chunks: missing");
  RAGWASM_TRY(jsonr::array(*cit, "chunks"));
  std::vector<ChunkRef> chunks;
  for (std::size_t i = 0; i < cit->size(); ++i) {
    const std::string p = jsonr::index_path("chunks", i);
    const json& c = (*cit)[i];
    RAGWASM_TRY(jsonr::expect_object(c, p, {"id", "docId", "ordinal", "start", "end"}));
    ChunkRef r;
    for (const char* req : {"id", "docId", "ordinal"}) {
      if (c.find(req) == c.end()) return make_error(ErrorCode::kInvalidArgument, jsonr::key_path(p, req) + ": missing");
    }
    auto id = jsonr::string(c["id"], p + ".id", false);
    if (!id.ok()) return id.error();
    auto doc = jsonr::string(c["docId"], p + ".docId", false);
    if (!doc.ok()) return doc.error();
    auto ord = jsonr::integer(c["ordinal"], p + ".ordinal", 0, 1000000000);
    if (!ord.ok()) return ord.error();
    r.id = std::move(id).value();
    r.doc_id = std::move(doc).value();
    r.ordinal = static_cast<std::size_t>(ord.value());
    if (c.find("start") != c.end()) {
      auto v = jsonr::number(c["start"], p + ".start", 0.0);
      if (!v.ok()) return v.error();
      r.start = v.value();
    }
    if (c.find("end") != c.end()) {
      auto v = jsonr::number(c["end"], p + ".end", 0.0);
      if (!v.ok()) return v.error();
      r.end = v.value();
    }
    chunks.push_back(std::move(r));
  }
  ExpandOptions o;
  if (auto it = j.find("before"); it != j.end()) {
    auto v = jsonr::integer(*it, "before", 0, 1000000);
    if (!v.ok()) return v.error();
    o.before = static_cast<std::size_t>(v.value());
  }
  if (auto it = j.find("after"); it != j.end()) {
    auto v = jsonr::integer(*it, "after", 0, 1000000);
    if (!v.ok()) return v.error();
    o.after = static_cast<std::size_t>(v.value());
  }
  auto r = expand_neighbours(hits.value(), chunks, o);
  if (!r.ok()) return r.error();
  json arr = json::array();
  for (const auto& p : r.value()) {
    json x = {{"docId", p.doc_id}, {"chunkIds", p.chunk_ids}, {"firstOrdinal", p.first_ordinal}, {"lastOrdinal", p.last_ordinal},
              {"score", p.score}, {"hitIds", p.hit_ids}};
    if (p.start >= 0) {
      x["start"] = p.start;
      x["end"] = p.end;
    }
    arr.push_back(std::move(x));
  }
  return dump(arr);
}

Result<std::string> aggregate_json(std::string_view request) {
  auto pj = jsonr::parse(request, "aggregate request");
  if (!pj.ok()) return pj.error();
  const json& j = pj.value();
  RAGWASM_TRY(jsonr::expect_object(j, "", {"ids", "docIds", "scores", "method", "m", "topK"}));
  auto c = scored_ids(j, "");
  if (!c.ok()) return c.error();
  auto dit = j.find("docIds");
  if (dit == j.end()) return make_error(ErrorCode::kInvalidArgument, "docIds: missing");
  RAGWASM_TRY(jsonr::array(*dit, "docIds"));
  if (dit->size() != c.value().size()) {
    return make_error(ErrorCode::kInvalidArgument, "docIds: expected " + std::to_string(c.value().size()) + " document ids (one per id), got " +
                                                       std::to_string(dit->size()));
  }
  std::vector<ChunkHit> hits;
  for (std::size_t i = 0; i < dit->size(); ++i) {
    auto d = jsonr::string((*dit)[i], jsonr::index_path("docIds", i), false);
    if (!d.ok()) return d.error();
    hits.push_back(ChunkHit{c.value()[i].id, std::move(d).value(), c.value()[i].score});
  }
  Aggregation how = Aggregation::kMax;
  if (auto it = j.find("method"); it != j.end()) {
    auto m = jsonr::one_of(*it, "method", {"max", "sum", "topm"});
    if (!m.ok()) return m.error();
    how = m.value() == "max" ? Aggregation::kMax : m.value() == "sum" ? Aggregation::kSum : Aggregation::kTopMMean;
  }
  std::size_t m = 3, top_k = 0;
  if (auto it = j.find("m"); it != j.end()) {
    auto v = jsonr::integer(*it, "m", 1, 1000000);
    if (!v.ok()) return v.error();
    m = static_cast<std::size_t>(v.value());
  }
  if (auto it = j.find("topK"); it != j.end()) {
    auto v = jsonr::integer(*it, "topK", 0, 100000000);
    if (!v.ok()) return v.error();
    top_k = static_cast<std::size_t>(v.value());
  }
  auto r = aggregate(hits, how, m, top_k);
  if (!r.ok()) return r.error();
  json arr = json::array();
  for (const auto& d : r.value()) {
    arr.push_back({{"docId", d.doc_id}, {"score", d.score}, {"chunks", d.chunks}, {"bestChunk", d.best_chunk}});
  }
  return dump(arr);
}

}  // namespace ragwasm::fusion
