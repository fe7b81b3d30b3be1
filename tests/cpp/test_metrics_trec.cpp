// src/metrics/trec: trec_eval-exact measures. Differential tests against trec_eval 10.0's own output
// on every golden run (../shared/data/golden), plus hand-worked examples written as arithmetic.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <dirent.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "metrics/trec.h"
#include "shared_data.h"

using namespace ragwasm::metrics;
using ragwasm::ErrorCode;

namespace {

// trec_eval output: "measure<spaces>\tqid\tvalue" lines -> [measure][qid] = value text.
std::map<std::string, std::map<std::string, std::string>> parse_trec_eval_output(const std::string& text) {
  std::map<std::string, std::map<std::string, std::string>> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto t1 = line.find('\t');
    const auto t2 = line.find('\t', t1 + 1);
    if (t1 == std::string::npos || t2 == std::string::npos) continue;
    std::string name = line.substr(0, t1);
    while (!name.empty() && name.back() == ' ') name.pop_back();
    out[name][line.substr(t1 + 1, t2 - t1 - 1)] = line.substr(t2 + 1);
  }
  return out;
}

std::vector<std::string> files_with_suffix(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) out.push_back(n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Compares every measure we compute with trec_eval's printed value (4 decimals: |delta| <= 1e-4),
// every query and 'all'. Returns the number of values compared.
std::size_t compare_with_golden(const EvalResult& r, const std::string& golden_text, const std::string& label) {
  const auto golden = parse_trec_eval_output(golden_text);
  std::size_t compared = 0;
  for (std::size_t k = 0; k < r.measures.size(); ++k) {
    const std::string& name = r.measures[k];
    auto it = golden.find(name);
    if (it == golden.end()) continue;  // ndcg_exp*: not a trec_eval measure
    for (std::size_t q = 0; q < r.query_ids.size(); ++q) {
      auto g = it->second.find(r.query_ids[q]);
      INFO(label << " measure " << name << " query " << r.query_ids[q]);
      REQUIRE(g != it->second.end());
      REQUIRE(std::fabs(r.value(q, k) - std::stod(g->second)) <= 1e-4);  // trec_eval prints %6.4f
      ++compared;
    }
    auto g = it->second.find("all");
    INFO(label << " measure " << name << " all");
    REQUIRE(g != it->second.end());
    REQUIRE(std::fabs(r.aggregate[k] - std::stod(g->second)) <= 1e-4);
    ++compared;
    // trec_eval lists exactly the queries we evaluated (plus 'all').
    REQUIRE(it->second.size() == r.query_ids.size() + 1);
  }
  auto nq = golden.find("num_q");
  REQUIRE(nq != golden.end());
  REQUIRE(std::stoul(nq->second.at("all")) == r.num_q);
  return compared;
}

// Our trec_eval-format output, line for line, equals trec_eval's lines for the measures we share.
void compare_lines(const EvalResult& r, const std::string& golden_text) {
  std::set<std::string> ours(r.measures.begin(), r.measures.end());
  ours.insert("runid");
  ours.insert("num_q");
  std::vector<std::string> expected;
  std::istringstream in(golden_text);
  std::string line;
  while (std::getline(in, line)) {
    std::string name = line.substr(0, line.find('\t'));
    while (!name.empty() && name.back() == ' ') name.pop_back();
    if (ours.count(name)) expected.push_back(line);
  }
  std::vector<std::string> got;
  std::istringstream in2(format_trec_eval(r, true));
  while (std::getline(in2, line)) {
    std::string name = line.substr(0, line.find('\t'));
    while (!name.empty() && name.back() == ' ') name.pop_back();
    if (name.rfind("ndcg_exp", 0) != 0) got.push_back(line);
  }
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("line " << i);
    REQUIRE(got[i] == expected[i]);
  }
}

RankedQuery ranked(std::vector<int> rels, std::vector<int> judged) { return RankedQuery{std::move(rels), std::move(judged)}; }

}  // namespace

TEST_CASE("every golden SciFact and CISI run equals trec_eval on every shared measure and query", "[diff]") {
  for (const char* ds : {"scifact", "cisi"}) {
    const std::string dir = ragwasm::testing::require_shared(std::string("data/golden/") + ds);
    const std::string qrels_path = ragwasm::testing::require_shared(std::string(ds) == "scifact" ? "data/scifact/qrels/test.trec" : "data/cisi/qrels.trec");
    auto qrels = parse_qrels(ragwasm::testing::read_file(qrels_path), qrels_path);
    REQUIRE(qrels.ok());
    const auto runs = files_with_suffix(dir, ".run");
    REQUIRE(runs.size() == 14);
    for (const auto& f : runs) {
      auto run = parse_run(ragwasm::testing::read_file(dir + "/" + f), f);
      REQUIRE(run.ok());
      EvalOptions o;
      o.complete_queries = true;  // the golden files were made with trec_eval -c
      auto r = evaluate(qrels.value(), run.value(), o);
      REQUIRE(r.ok());
      const std::string golden = ragwasm::testing::read_file(dir + "/" + f.substr(0, f.size() - 4) + ".trec_eval.txt");
      const std::size_t n = compare_with_golden(r.value(), golden, std::string(ds) + "/" + f);
      REQUIRE(n > 40 * r.value().num_q);  // 45 trec_eval measures per query were compared
      compare_lines(r.value(), golden);
    }
  }
}

TEST_CASE("trec_eval's own test suite is reproduced for binary and graded qrels", "[diff]") {
  const std::string dir = ragwasm::testing::require_shared("data/golden/trec_eval_suite");
  auto run = parse_trec_run(ragwasm::testing::read_file(dir + "/results.test"), "results.test");
  REQUIRE(run.ok());
  for (auto [qrels_file, out_file] : {std::pair<const char*, const char*>{"qrels.test", "out.all_trec.q.txt"},
                                      std::pair<const char*, const char*>{"qrels.rel_level", "out.rel_level.all_trec.q.txt"}}) {
    auto qrels = parse_trec_qrels(ragwasm::testing::read_file(dir + "/" + qrels_file), qrels_file);
    REQUIRE(qrels.ok());
    auto r = evaluate(qrels.value(), run.value(), EvalOptions{});
    REQUIRE(r.ok());
    const std::string golden = ragwasm::testing::read_file(dir + "/" + out_file);
    REQUIRE(compare_with_golden(r.value(), golden, qrels_file) > 100);
    compare_lines(r.value(), golden);
  }
}

TEST_CASE("a judged query missing from the run is an error unless complete queries is set", "[unit]") {
  auto qrels = parse_trec_qrels("q1 0 d1 1\nq2 0 d2 1\n");
  auto run = parse_trec_run("q1 Q0 d1 1 2.0 r\n");
  REQUIRE(qrels.ok());
  REQUIRE(run.ok());
  auto strict = evaluate(qrels.value(), run.value(), EvalOptions{});
  REQUIRE(!strict.ok());
  REQUIRE(strict.error().code == ErrorCode::kNotFound);
  REQUIRE(strict.error().message.find("'q2'") != std::string::npos);
  EvalOptions c;
  c.complete_queries = true;
  c.measures = {"map", "num_rel"};
  auto r = evaluate(qrels.value(), run.value(), c);
  REQUIRE(r.ok());
  // q1: AP = 1/1 = 1; q2: nothing retrieved, AP = 0; mean over num_q = 2 -> 0.5
  REQUIRE(r.value().num_q == 2);
  REQUIRE(r.value().measures == std::vector<std::string>{"num_rel", "map"});
  REQUIRE(r.value().aggregate[1] == Approx(0.5).margin(1e-12));
  REQUIRE(r.value().aggregate[0] == 2);  // num_rel is summed, the missing query's document included
}

TEST_CASE("precision and recall at 10 follow the per-rank relevance", "[unit]") {
  // ranks 1..10: R N R R N R N N R N  -> 5 relevant in the top 10; 8 relevant judged in total
  auto q = ranked({1, 0, 1, 1, 0, 1, 0, 0, 1, 0}, {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0});
  REQUIRE(recall_at(q, 10) == Approx(5.0 / 8).margin(1e-12));
  REQUIRE(precision_at(q, 10) == Approx(5.0 / 10).margin(1e-12));
  // 6 relevant in the top 10 -> P@10 = 6/10
  auto q6 = ranked({1, 1, 0, 1, 0, 1, 0, 1, 0, 1}, {1, 1, 1, 1, 1, 1});
  REQUIRE(precision_at(q6, 10) == Approx(6.0 / 10).margin(1e-12));
  // P@k divides by k even when fewer documents were returned: 2 relevant of 3 returned, P@5 = 2/5
  auto short_list = ranked({1, 0, 1}, {1, 1});
  REQUIRE(precision_at(short_list, 5) == Approx(2.0 / 5).margin(1e-12));
  REQUIRE(success_at(short_list, 1) == 1.0);
  REQUIRE(success_at(ranked({0, 0, 1}, {1}), 2) == 0.0);
}

TEST_CASE("average precision reciprocal rank and R-precision by hand", "[unit]") {
  // ranks: N R N R N ; 3 relevant judged (one never retrieved)
  auto q = ranked({0, 1, 0, 1, 0}, {1, 1, 1, 0, 0, 0});
  // AP = (1/2 + 2/4) / 3
  REQUIRE(average_precision(q, 0) == Approx((1.0 / 2 + 2.0 / 4) / 3).margin(1e-12));
  // AP cut at 3 = (1/2) / 3
  REQUIRE(average_precision(q, 3) == Approx((1.0 / 2) / 3).margin(1e-12));
  REQUIRE(reciprocal_rank(q) == Approx(1.0 / 2).margin(1e-12));
  // R = 3: top 3 holds 1 relevant -> 1/3
  REQUIRE(r_precision(q) == Approx(1.0 / 3).margin(1e-12));
  // bpref: N = 3 judged non-relevant; relevant at rank 2 has 1 non-relevant above:
  // 1 - min(1,3)/min(3,3) = 2/3; rank 4 has 2 above: 1 - 2/3 = 1/3; sum / R = (2/3 + 1/3) / 3
  REQUIRE(bpref(q) == Approx((2.0 / 3 + 1.0 / 3) / 3).margin(1e-12));
}

TEST_CASE("nDCG uses linear gain and log2 of rank plus one like trec_eval", "[unit]") {
  // ranks 1..4 carry relevance 3 0 2 1; judged values {3, 2, 1, 0}
  auto q = ranked({3, 0, 2, 1}, {3, 2, 1, 0});
  const double dcg = 3 / std::log2(2.0) + 0 + 2 / std::log2(4.0) + 1 / std::log2(5.0);
  const double idcg = 3 / std::log2(2.0) + 2 / std::log2(3.0) + 1 / std::log2(4.0);
  REQUIRE(ndcg_at(q, 0) == Approx(dcg / idcg).margin(1e-12));
  // cut at 2: DCG@2 = 3/1 + 0 ; IDCG@2 = 3/1 + 2/log2(3)
  REQUIRE(ndcg_at(q, 2) == Approx(3.0 / (3 + 2 / std::log2(3.0))).margin(1e-12));
  // exponential gain (Burges): gains 2^3-1 = 7, 2^2-1 = 3, 2^1-1 = 1
  const double edcg = 7 / std::log2(2.0) + 3 / std::log2(4.0) + 1 / std::log2(5.0);
  const double eidcg = 7 / std::log2(2.0) + 3 / std::log2(3.0) + 1 / std::log2(4.0);
  REQUIRE(ndcg_exp_at(q, 0) == Approx(edcg / eidcg).margin(1e-12));
  // no relevant document judged: nDCG = 0 (trec_eval leaves the value at 0)
  REQUIRE(ndcg_at(ranked({0, 0}, {0, 0}), 10) == 0.0);
}

TEST_CASE("equal scores are ordered by docno descending as trec_eval sorts them", "[unit]") {
  // d1 and d2 tie at 1.0: trec_eval ranks d2 first (strcmp descending), whatever the rank column says.
  auto run = parse_trec_run("q Q0 d1 1 1.0 r\nq Q0 d2 2 1.0 r\nq Q0 d0 3 0.5 r\n");
  REQUIRE(run.ok());
  const auto& e = run.value().entries(0);
  REQUIRE(run.value().docno(e[0].doc) == "d2");
  REQUIRE(run.value().docno(e[1].doc) == "d1");
  REQUIRE(run.value().docno(e[2].doc) == "d0");
  auto qrels = parse_trec_qrels("q 0 d1 1\n");
  EvalOptions o;
  o.measures = {"recip_rank"};
  auto r = evaluate(qrels.value(), run.value(), o);
  REQUIRE(r.ok());
  REQUIRE(r.value().aggregate[0] == Approx(1.0 / 2).margin(1e-12));  // d1 is at rank 2
}

TEST_CASE("relevance level threshold decides which graded judgments count", "[unit]") {
  auto qrels = parse_trec_qrels("q 0 a 1\nq 0 b 2\nq 0 c 0\n");
  auto run = parse_trec_run("q Q0 a 1 3 r\nq Q0 b 2 2 r\nq Q0 c 3 1 r\n");
  EvalOptions o;
  o.relevance_level = 2;
  o.measures = {"P.2", "num_rel", "map"};
  auto r = evaluate(qrels.value(), run.value(), o);
  REQUIRE(r.ok());
  // level 2: only b is relevant (rank 2). P@2 = 1/2; num_rel = 1; AP = (1/2)/1
  REQUIRE(r.value().measures == std::vector<std::string>{"num_rel", "map", "P_2"});
  REQUIRE(r.value().aggregate[0] == 1);
  REQUIRE(r.value().aggregate[1] == Approx(0.5).margin(1e-12));
  REQUIRE(r.value().aggregate[2] == Approx(0.5).margin(1e-12));
}

TEST_CASE("malformed qrels and run lines are parse errors naming file and line", "[unit]") {
  auto q = parse_trec_qrels("q 0 d 1\nq 0 d2\n", "my.qrels");
  REQUIRE(!q.ok());
  REQUIRE(q.error().code == ErrorCode::kParseError);
  REQUIRE(q.error().message.find("my.qrels:2:") != std::string::npos);
  auto q2 = parse_trec_qrels("q 0 d x\n", "a");
  REQUIRE(q2.error().message.find("a:1:") != std::string::npos);
  auto r = parse_trec_run("q Q0 d 1 1.0 r\n\nq Q0 e 2 abc r\n", "my.run");
  REQUIRE(!r.ok());
  REQUIRE(r.error().code == ErrorCode::kParseError);
  REQUIRE(r.error().message.find("my.run:3:") != std::string::npos);
  auto nan = parse_trec_run("q Q0 d 1 nan r\n", "n.run");
  REQUIRE(!nan.ok());
  REQUIRE(nan.error().code == ErrorCode::kInvalidArgument);
  REQUIRE(nan.error().message.find("n.run:1:") != std::string::npos);
  auto j = parse_jsonl_run("{\"qid\":\"1\",\"docid\":\"a\",\"score\":1}\n{\"qid\":\"1\",\"docid\":\"b\"}\n", "r.jsonl");
  REQUIRE(!j.ok());
  REQUIRE(j.error().message.find("r.jsonl:2:") != std::string::npos);
}

TEST_CASE("duplicate documents in a run or qrels are rejected like trec_eval", "[unit]") {
  auto r = parse_trec_run("q Q0 d 1 1.0 r\nq2 Q0 d 1 1.0 r\nq Q0 d 2 0.5 r\n", "dup.run");
  REQUIRE(!r.ok());
  REQUIRE(r.error().code == ErrorCode::kDuplicateId);
  REQUIRE(r.error().message.find("dup.run:3:") != std::string::npos);
  auto q = parse_trec_qrels("q 0 d 1\nq 0 d 0\n");
  REQUIRE(q.error().code == ErrorCode::kDuplicateId);
}

TEST_CASE("BEIR qrels with header and CRLF and JSONL runs parse", "[unit]") {
  auto q = parse_qrels("query-id\tcorpus-id\tscore\r\n1\tA\t1\r\n1\tB\t2\r\n");
  REQUIRE(q.ok());
  REQUIRE(q.value().size() == 2);
  REQUIRE(q.value().judgments(0)[1].rel == 2);
  auto r = parse_run("{\"qid\":\"1\",\"hits\":[{\"docid\":\"A\",\"score\":0.5},{\"docid\":\"B\",\"score\":0.9}]}\n");
  REQUIRE(r.ok());
  REQUIRE(r.value().docno(r.value().entries(0)[0].doc) == "B");
  EvalOptions o;
  o.measures = {"ndcg_cut.1"};
  auto e = evaluate(q.value(), r.value(), o);
  REQUIRE(e.ok());
  REQUIRE(e.value().aggregate[0] == Approx(1.0).margin(1e-12));  // B (rel 2) first: ideal
}

TEST_CASE("measure requests reject unknown names and non-positive cutoffs", "[unit]") {
  REQUIRE(parse_measures({"P.0"}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(parse_measures({"P.-3"}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(parse_measures({"mapp"}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(parse_measures({"map.5"}).error().code == ErrorCode::kInvalidArgument);
  auto ok = parse_measures({"P_10", "P.5", "ndcg_cut.10"});
  REQUIRE(ok.ok());
  REQUIRE(ok.value().cutoffs[static_cast<int>(Family::kP)] == std::vector<int>{5, 10});
}

TEST_CASE("#19 a BEIR qrels row with a non-numeric score is an error naming file and line", "[unit]") {
  auto q = parse_beir_qrels("query-id\tcorpus-id\tscore\n1\tA\t1\n1\tB\thigh\n", "test.tsv");
  REQUIRE_FALSE(q.ok());
  CHECK(q.error().code == ErrorCode::kParseError);
  CHECK(q.error().message == "ragwasm: test.tsv:3: score: expected an integer, got 'high'");
  // A first row that is not the BEIR header is a judgment, so a bad score there is an error too.
  auto first = parse_beir_qrels("1\tA\tyes\n1\tB\t1\n", "first.tsv");
  REQUIRE_FALSE(first.ok());
  CHECK(first.error().message.find("first.tsv:1:") != std::string::npos);
  // Nothing was lost: the same rows with integer scores parse.
  auto good = parse_beir_qrels("query-id\tcorpus-id\tscore\n1\tA\t1\n1\tB\t2\n", "test.tsv");
  REQUIRE(good.ok());
  CHECK(good.value().size() == 2);
}

TEST_CASE("#19 an empty qrels file is an error not a table of zeros", "[unit]") {
  for (const char* text : {"", "\n\n", "query-id\tcorpus-id\tscore\n"}) {
    INFO("text: '" << text << "'");
    auto q = parse_qrels(text, "empty.qrels");
    REQUIRE_FALSE(q.ok());
    CHECK(q.error().code == ErrorCode::kParseError);
    CHECK(q.error().message == "ragwasm: empty.qrels: no judgments (an empty qrels file evaluates every run to 0)");
  }
  CHECK(parse_trec_qrels("", "e").error().code == ErrorCode::kParseError);
  CHECK(parse_qrels("q 0 d 1\n", "one.qrels").value().size() == 1);
}
