// trec_eval-exact retrieval metrics: TREC/BEIR qrels, TREC/JSONL runs and the measures of trec_eval
// 10.0 (usnistgov/trec_eval, form_res_rels.c + m_*.c), named as trec_eval prints them.
// Ordering rule copied from form_res_rels.c comp_sim_docno: score descending, ties by docno in
// DESCENDING strcmp order (its comment says "lexicographically"); the rank column is ignored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/result.h"

namespace ragwasm::metrics {

// Relevance judgments: per query, (docno, relevance value). A value < 0 marks a pooled but unjudged
// document (trec_eval's RELVALUE_UNJUDGED); it never counts as relevant or as judged non-relevant.
class Qrels {
 public:
  struct Judgment {
    std::string docno;
    int rel;
  };
  // Adds one judgment. DUPLICATE_ID when (qid, docno) is already judged (trec_eval errors too).
  Status add(std::string_view qid, std::string_view docno, int rel);
  std::size_t num_queries() const { return qids_.size(); }
  const std::vector<std::string>& query_ids() const { return qids_; }
  // Index of a query id or -1.
  long find(std::string_view qid) const;
  const std::vector<Judgment>& judgments(std::size_t q) const { return docs_[q]; }
  std::size_t size() const { return total_; }

 private:
  std::vector<std::string> qids_;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::vector<Judgment>> docs_;
  std::vector<std::unordered_map<std::string, std::size_t>> doc_index_;
  std::size_t total_ = 0;
};

// A ranked run. Documents are interned (one id per distinct docno) so evaluation needs no string
// hashing per retrieved document. Each query's list is kept in trec_eval's order (see file header).
class Run {
 public:
  struct Entry {
    std::uint32_t doc;  // interned docno id
    double score;
  };
  // Adds one retrieved document. INVALID_ARGUMENT for a non-finite score or an empty/space-containing
  // id; DUPLICATE_ID when the query already lists docno (trec_eval: "duplicate docs", exit).
  Status add(std::string_view qid, std::string_view docno, double score);
  // Adds a whole query at once, all or nothing: DUPLICATE_ID when qid is already in the run or a
  // docno repeats, INVALID_ARGUMENT for bad ids, non-finite scores or ids.size() != scores.size().
  // The query is sorted into trec_eval order at once (no finalize() needed).
  Status add_query(std::string_view qid, const std::vector<std::string_view>& docnos, const std::vector<double>& scores);
  // Sorts every query into trec_eval order. Called by the parsers; call after add() yourself.
  void finalize();

  std::size_t num_queries() const { return qids_.size(); }
  const std::vector<std::string>& query_ids() const { return qids_; }
  long find(std::string_view qid) const;
  const std::vector<Entry>& entries(std::size_t q) const { return lists_[q]; }
  const std::string& docno(std::uint32_t id) const { return docnos_[id]; }
  // Interned id of a docno, or -1 when no query retrieved it.
  long doc_id(std::string_view docno) const;
  std::size_t num_docs() const { return docnos_.size(); }
  std::size_t size() const { return total_; }
  const std::string& run_id() const { return run_id_; }
  void set_run_id(std::string id) { run_id_ = std::move(id); }

 private:
  std::vector<std::string> qids_;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::vector<Entry>> lists_;
  std::vector<std::string> docnos_;
  std::unordered_map<std::string, std::uint32_t> doc_index_;
  std::vector<std::uint32_t> seen_;  // per doc id: 1 + index of the last query that added it
  std::vector<bool> interleaved_;    // per query: its lines were not contiguous (slow duplicate check)
  std::size_t last_query_ = 0;       // 1 + the query of the last add()
  std::string key_;                  // lookup buffer (no allocation per add for short ids)
  void sort_query(std::size_t q);
  std::size_t intern_query(std::string_view qid);
  std::uint32_t intern_doc(std::string_view docno);
  std::string run_id_;
  std::size_t total_ = 0;
};

// Parsers. `name` (a file name) prefixes error messages as "name:line: ...". Malformed lines are
// PARSE_ERROR, never skipped; blank lines are allowed.
//   TREC qrels:  "qid iter docno rel" (4 fields, rel an integer)
//   BEIR qrels:  "query-id<TAB>corpus-id<TAB>score", optional header row, LF or CRLF
//   TREC run:    "qid Q0 docno rank score runid" (6 fields; rank ignored; score finite)
//   JSONL run:   {"qid": "1", "docid": "d", "score": 1.5} per line, or {"qid": "1", "hits":
//                [{"docid": "d", "score": 1.5}, ...]}; "query_id"/"doc_id" are accepted too.
Result<Qrels> parse_trec_qrels(std::string_view text, std::string_view name = "qrels");
Result<Qrels> parse_beir_qrels(std::string_view text, std::string_view name = "qrels");
// Picks BEIR when the first non-blank line has 3 tab-separated fields, TREC otherwise.
Result<Qrels> parse_qrels(std::string_view text, std::string_view name = "qrels");
Result<Run> parse_trec_run(std::string_view text, std::string_view name = "run");
Result<Run> parse_jsonl_run(std::string_view text, std::string_view name = "run");
// JSONL when the first non-blank character is '{', TREC otherwise.
Result<Run> parse_run(std::string_view text, std::string_view name = "run");

// Measure families in trec_eval's all_trec print order (plus the exponential-gain nDCG at the end).
enum class Family {
  kNumRet, kNumRel, kNumRelRet, kMap, kRprec, kBpref, kRecipRank,
  kP, kRecall, kNdcg, kNdcgCut, kMapCut, kSuccess, kNdcgExp, kNdcgExpCut,
};

struct MeasureSet {
  // cutoffs[f] for the cut families; enabled[f] for every family.
  bool enabled[15] = {};
  std::vector<int> cutoffs[15];
};

// Parses measure requests the way trec_eval's -m does: "all_trec" (every measure here, trec_eval's
// default cutoffs), "map", "P" (cutoffs 5,10,15,20,30,100,200,500,1000), "P.5,10", "ndcg_cut.10";
// also the printed form "P_10". Empty list = all_trec. INVALID_ARGUMENT for unknown names or k <= 0.
Result<MeasureSet> parse_measures(const std::vector<std::string>& requests);

struct EvalOptions {
  int relevance_level = 1;        // trec_eval -l: a document is relevant when rel >= this
  bool complete_queries = false;  // trec_eval -c: judged queries missing from the run count as 0
  std::vector<std::string> measures;  // parse_measures() syntax; empty = all_trec
};

struct EvalResult {
  std::vector<std::string> measures;   // printed names in trec_eval order ("map", "P_10", ...)
  std::vector<bool> is_count;          // integer measures (num_ret, num_rel, num_rel_ret): summed
  std::vector<std::string> query_ids;  // evaluated queries in strcmp order (as trec_eval prints)
  std::vector<double> per_query;       // row-major [query][measure]
  std::vector<double> aggregate;       // per measure: sum for counts, mean over num_q otherwise
  std::size_t num_q = 0;
  std::string run_id;
  double value(std::size_t q, std::size_t m) const { return per_query[q * measures.size() + m]; }
};

// Evaluates a run against qrels exactly as trec_eval 10.0 does.
// Queries: those judged in qrels. A judged query absent from the run is NOT_FOUND (trec_eval 10.0
// exits with an error there) unless complete_queries, which evaluates it with an empty list (all
// zeros, its relevant documents still count in num_rel). Run queries without judgments are ignored.
// INVALID_ARGUMENT: bad measures. A query with no relevant document scores 0 on every ratio measure.
Result<EvalResult> evaluate(const Qrels& qrels, const Run& run, const EvalOptions& options);

// trec_eval's output: per-query blocks (when per_query) then the "all" block, each line
// "%-22s\t%s\t%6.4f" (counts "%ld"). `header` adds the runid and num_q lines that trec_eval prints
// for its measure sets (all_trec, the default) but not for single measures given with -m.
std::string format_trec_eval(const EvalResult& result, bool per_query, bool header = true);

// Single-query helpers on a ranked relevance list (rels[i] = relevance of the document at rank
// i + 1, negative = unjudged) and the judged relevance values of the query. Used by the JS
// per-metric functions and the hand-worked tests.
struct RankedQuery {
  std::vector<int> rels;    // in rank order
  std::vector<int> judged;  // every judged value of the query (any order)
};
double precision_at(const RankedQuery& q, int k, int level = 1);
double recall_at(const RankedQuery& q, int k, int level = 1);
double average_precision(const RankedQuery& q, int k /* 0 = all */, int level = 1);
double reciprocal_rank(const RankedQuery& q, int level = 1);
double r_precision(const RankedQuery& q, int level = 1);
double success_at(const RankedQuery& q, int k, int level = 1);
double bpref(const RankedQuery& q, int level = 1);
// trec_eval nDCG: gain = relevance value (levels <= 0 gain 0), discount log2(rank + 1).
double ndcg_at(const RankedQuery& q, int k /* 0 = all */);
// Burges et al. 2005: gain 2^rel - 1, same discount and ideal.
double ndcg_exp_at(const RankedQuery& q, int k /* 0 = all */);

}  // namespace ragwasm::metrics
