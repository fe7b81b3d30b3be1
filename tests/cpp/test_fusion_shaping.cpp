// src/fusion shaping: MMR, neighbour expansion, chunk -> document aggregation; plus the JSON front
// end of the fusion module (path-named errors).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fusion/fusion_json.h"
#include "fusion/shaping.h"
#include "fusion/tune.h"

using namespace ragwasm;
using namespace ragwasm::fusion;

namespace {
std::vector<std::string> mmr_ids(const std::vector<MmrHit>& h) {
  std::vector<std::string> out;
  for (const auto& x : h) out.push_back(x.id);
  return out;
}
// a 1.0, b 0.9, c 0.5 -> rel (min-max) a 1, b 0.8, c 0
const std::vector<ScoredId> kCands = {{"a", 1.0}, {"b", 0.9}, {"c", 0.5}};
}  // namespace

TEST_CASE("MMR with a similarity matrix skips a near-duplicate", "[unit]") {
  // sim(a,b) = 0.95, sim(a,c) = 0.1, sim(b,c) = 0.2
  const std::vector<double> sim = {1, 0.95, 0.1, 0.95, 1, 0.2, 0.1, 0.2, 1};
  MmrOptions o;
  o.lambda = 0.5;
  o.k = 3;
  auto r = mmr_matrix(kCands, sim, o);
  REQUIRE(r.ok());
  // step 1: a (0.5*1); step 2: b = 0.5*0.8 - 0.5*0.95 = -0.075, c = 0.5*0 - 0.5*0.1 = -0.05 -> c;
  // step 3: b with max sim 0.95 -> -0.075
  REQUIRE(mmr_ids(r.value()) == std::vector<std::string>{"a", "c", "b"});
  REQUIRE(r.value()[0].mmr == Approx(0.5).epsilon(1e-12));
  REQUIRE(r.value()[1].mmr == Approx(-0.05).epsilon(1e-12));
  REQUIRE(r.value()[2].mmr == Approx(-0.075).epsilon(1e-12));
  REQUIRE(r.value()[2].max_similarity == Approx(0.95).epsilon(1e-12));
  REQUIRE(r.value()[1].input_index == 2);
  o.lambda = 1.0;  // pure relevance
  REQUIRE(mmr_ids(mmr_matrix(kCands, sim, o).value()) == std::vector<std::string>{"a", "b", "c"});
  o.k = 1;
  REQUIRE(mmr_matrix(kCands, sim, o).value().size() == 1);
}

TEST_CASE("MMR with vectors uses cosine similarity", "[unit]") {
  const std::vector<float> v = {1, 0, 1, 0.01f, 0, 1};  // a ~ b, c orthogonal to a
  MmrOptions o;
  o.lambda = 0.5;
  o.k = 10;  // more than candidates: all returned
  auto r = mmr_vectors(kCands, v, 2, o);
  REQUIRE(r.ok());
  REQUIRE(mmr_ids(r.value()) == std::vector<std::string>{"a", "c", "b"});
  REQUIRE(r.value()[1].max_similarity == 0.0);  // cos(c, a) = 0
  // zero vectors have similarity 0 with everything
  const std::vector<float> z = {0, 0, 0, 0, 0, 0};
  REQUIRE(mmr_ids(mmr_vectors(kCands, z, 2, o).value()) == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("MMR rejects bad lambda k and shapes", "[unit]") {
  MmrOptions o;
  o.lambda = 1.5;
  auto l = mmr_matrix(kCands, std::vector<double>(9, 0.0), o);
  REQUIRE(l.error().code == ErrorCode::kInvalidArgument);
  REQUIRE(l.error().message == "ragwasm: lambda: expected a number in [0, 1], got 1.5");
  o.lambda = 0.5;
  o.k = 0;
  REQUIRE(mmr_matrix(kCands, std::vector<double>(9, 0.0), o).error().code == ErrorCode::kInvalidArgument);
  o.k = 2;
  REQUIRE(mmr_matrix(kCands, std::vector<double>(8, 0.0), o).error().code == ErrorCode::kDimensionMismatch);
  REQUIRE(mmr_vectors(kCands, std::vector<float>(5, 1.0f), 2, o).error().code == ErrorCode::kDimensionMismatch);
  REQUIRE(mmr_matrix({{"a", 1}, {"a", 2}}, std::vector<double>(4, 0.0), o).error().code == ErrorCode::kDuplicateId);
  REQUIRE(mmr_matrix({}, {}, o).value().empty());
}

namespace {
std::vector<ChunkRef> doc_table() {
  std::vector<ChunkRef> c;
  for (std::size_t i = 0; i < 6; ++i) c.push_back({"D" + std::to_string(i), "D", i, 100.0 * i, 100.0 * i + 100});
  for (std::size_t i = 0; i < 3; ++i) c.push_back({"E" + std::to_string(i), "E", i, -1, -1});
  return c;
}
}  // namespace

TEST_CASE("neighbour expansion merges overlapping windows of one document", "[unit]") {
  auto r = expand_neighbours({{"D2", 0.9}, {"D4", 0.5}, {"E0", 0.7}}, doc_table(), ExpandOptions{1, 1});
  REQUIRE(r.ok());
  const auto& p = r.value();
  REQUIRE(p.size() == 2);
  // D2 -> [1,3], D4 -> [3,5]: overlap -> one passage D1..D5 scored max(0.9, 0.5)
  REQUIRE(p[0].doc_id == "D");
  REQUIRE(p[0].chunk_ids == std::vector<std::string>{"D1", "D2", "D3", "D4", "D5"});
  REQUIRE(p[0].score == 0.9);
  REQUIRE(p[0].hit_ids == std::vector<std::string>{"D2", "D4"});
  REQUIRE(p[0].start == 100);
  REQUIRE(p[0].end == 600);
  // E0 -> [0,1] (no ordinal -1); offsets unknown -> -1
  REQUIRE(p[1].chunk_ids == std::vector<std::string>{"E0", "E1"});
  REQUIRE(p[1].start == -1);
}

TEST_CASE("neighbour windows merge when touching and stay apart otherwise", "[unit]") {
  auto apart = expand_neighbours({{"D1", 0.5}, {"D3", 0.6}}, doc_table(), ExpandOptions{0, 0});
  REQUIRE(apart.value().size() == 2);
  REQUIRE(apart.value()[0].chunk_ids == std::vector<std::string>{"D3"});  // higher score first
  auto touching = expand_neighbours({{"D1", 0.5}, {"D2", 0.6}}, doc_table(), ExpandOptions{0, 0});
  REQUIRE(touching.value().size() == 1);
  REQUIRE(touching.value()[0].chunk_ids == std::vector<std::string>{"D1", "D2"});
  auto missing = expand_neighbours({{"Z", 0.5}}, doc_table(), ExpandOptions{});
  REQUIRE(missing.error().code == ErrorCode::kNotFound);
  auto table = doc_table();
  table.push_back({"X", "D", 3, -1, -1});
  REQUIRE(expand_neighbours({{"D1", 0.5}}, table, ExpandOptions{}).error().code == ErrorCode::kDuplicateId);
}

TEST_CASE("chunk scores aggregate to documents by max sum and top m mean", "[unit]") {
  const std::vector<ChunkHit> hits = {{"c1", "d1", 0.9}, {"c2", "d1", 0.8}, {"c3", "d2", 0.85}, {"c4", "d1", 0.1}, {"c5", "d3", 0.85}};
  auto mx = aggregate(hits, Aggregation::kMax);
  REQUIRE(mx.ok());
  REQUIRE(mx.value().size() == 3);
  REQUIRE(mx.value()[0].doc_id == "d1");
  REQUIRE(mx.value()[0].score == 0.9);
  REQUIRE(mx.value()[0].chunks == 3);
  REQUIRE(mx.value()[0].best_chunk == "c1");
  REQUIRE(mx.value()[1].doc_id == "d2");  // tie 0.85 with d3: doc id asc
  REQUIRE(mx.value()[2].doc_id == "d3");
  auto sum = aggregate(hits, Aggregation::kSum);
  REQUIRE(sum.value()[0].score == Approx(0.9 + 0.8 + 0.1).epsilon(1e-12));
  auto top3 = aggregate(hits, Aggregation::kTopMMean, 3);
  // d1: (0.9 + 0.8 + 0.1) / 3 = 0.6 falls below d2 and d3 (0.85, one chunk each)
  REQUIRE(top3.value()[0].doc_id == "d2");
  REQUIRE(top3.value()[2].doc_id == "d1");
  REQUIRE(top3.value()[2].score == Approx((0.9 + 0.8 + 0.1) / 3).epsilon(1e-12));
  REQUIRE(aggregate(hits, Aggregation::kMax, 3, 1).value().size() == 1);
  REQUIRE(aggregate(hits, Aggregation::kTopMMean, 0).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(aggregate({{"c", "d", 1}, {"c", "e", 2}}, Aggregation::kMax).error().code == ErrorCode::kDuplicateId);
}

TEST_CASE("the fuse JSON request names the JSON path of a bad value", "[unit]") {
  auto ok = fuse_json(R"({"lists":[{"retriever":"bm25","ids":["a","b"],"scores":[2,1]},
                                   {"retriever":"dense","ids":["b"],"scores":[0.5]}],"mode":"rrf"})");
  REQUIRE(ok.ok());
  auto j = nlohmann::json::parse(ok.value());
  REQUIRE(j["hits"][0]["id"] == "b");  // 1/62 + 1/61 > 1/61
  REQUIRE(j["hits"][0]["contributions"][1]["retriever"] == "dense");
  REQUIRE(j["options"]["mode"] == "rrf");
  REQUIRE(j["diagnostics"]["pairs"][0]["shared"] == 1);

  auto neg = fuse_json(R"({"lists":[{"retriever":"a","ids":[],"scores":[]},{"retriever":"b","ids":[],"scores":[]}],"weights":[1,-1]})");
  REQUIRE(neg.error().code == ErrorCode::kInvalidArgument);
  REQUIRE(neg.error().message == "ragwasm: weights[1]: expected a number >= 0, got -1");
  auto unk = fuse_json(R"({"lists":[],"mdoe":"rrf"})");
  REQUIRE(unk.error().message.find("mdoe: unknown key") != std::string::npos);
  auto typ = fuse_json(R"({"lists":[{"retriever":"a","ids":["x"],"scores":["1"]}]})");
  REQUIRE(typ.error().message == "ragwasm: lists[0].scores[0]: expected a number, got \"1\"");
  auto syn = fuse_json("{\"lists\": [");
  REQUIRE(syn.error().code == ErrorCode::kParseError);
  auto def = fuse_json(R"({"lists":[{"retriever":"a","ids":["x"],"scores":[1]},{"retriever":"b","ids":["y"],"scores":[1]}]})");
  REQUIRE(nlohmann::json::parse(def.value())["options"]["mode"] == "convex");  // hybrid default
  REQUIRE(nlohmann::json::parse(def.value())["diagnostics"]["warnings"].size() == 1);
}

TEST_CASE("the tune JSON request returns the best configuration and the table", "[unit]") {
  auto r = tune_json(R"({"queries":[{"queryId":"q","lists":[{"retriever":"a","ids":["r","n"],"scores":[2,1]},
                                                         {"retriever":"b","ids":["n","r"],"scores":[2,1]}]}],
                         "qrels":{"q":{"r":1}}})");
  REQUIRE(r.ok());
  auto j = nlohmann::json::parse(r.value());
  REQUIRE(j["bestIndex"] == 0);
  REQUIRE(j["bestObjective"] == 1.0);
  REQUIRE(j["table"].size() == default_grid(2).size());
  REQUIRE(j["metric"] == "ndcg_cut_10");
  auto bad = tune_json(R"({"queries":[],"qrels":{"q":{"r":"yes"}}})");
  REQUIRE(bad.error().message == "ragwasm: qrels.q.r: expected an integer relevance, got \"yes\"");
}
