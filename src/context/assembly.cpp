// Context assembly under a token budget (see assembly.h).
#include "context/assembly.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "common/json_reader.h"
#include "common/ranking.h"
#include "text/utf8.h"

namespace ragwasm::context {

std::size_t estimate_tokens(std::string_view utf8) {
  const std::size_t cp = text::count_code_points(utf8);
  return (cp + 3) / 4;
}

Result<AssembledContext> assemble(const std::vector<ContextChunk>& chunks, const AssemblyOptions& o) {
  if (o.token_budget == 0) return make_error(ErrorCode::kInvalidArgument, "tokenBudget: expected an integer >= 1, got 0");
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const auto& c = chunks[i];
    const std::string p = "chunks[" + std::to_string(i) + "]";
    if (c.chunk_id.empty()) return make_error(ErrorCode::kInvalidArgument, p + ".chunkId: expected a non-empty string, got \"\"");
    if (!std::isfinite(c.score)) return make_error(ErrorCode::kInvalidArgument, p + ".score: expected a finite number, got " + jsonr::number_text(c.score));
    if (c.tokens != -1 && !(c.tokens >= 0 && c.tokens == std::floor(c.tokens) && c.tokens < 1e15)) {
      return make_error(ErrorCode::kInvalidArgument, p + ".tokens: expected an integer >= 0, got " + jsonr::number_text(c.tokens));
    }
    const std::size_t bad = text::find_invalid_utf8(c.text);
    if (bad != c.text.size()) return make_error(ErrorCode::kInvalidUtf8, p + ".text: invalid UTF-8 at byte " + std::to_string(bad));
  }
  for (const auto& [doc, ctx] : o.doc_context) {
    const std::size_t bad = text::find_invalid_utf8(ctx);
    if (bad != ctx.size()) return make_error(ErrorCode::kInvalidUtf8, "docContext[\"" + doc + "\"]: invalid UTF-8 at byte " + std::to_string(bad));
  }

  std::vector<std::size_t> order(chunks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return ranks_before(chunks[a].score, chunks[a].chunk_id, chunks[b].score, chunks[b].chunk_id);
  });

  AssembledContext out;
  std::vector<std::size_t> picked;
  std::vector<std::size_t> picked_tokens;
  std::set<std::string_view> seen_ids;
  std::set<std::string_view> docs_with_context;
  const std::size_t sep_cost = estimate_tokens("\n\n");
  std::size_t used = 0;
  for (std::size_t i : order) {
    const auto& c = chunks[i];
    if (!seen_ids.insert(c.chunk_id).second) continue;  // duplicate id: the first (best) one counts
    if (o.max_chunks > 0 && picked.size() >= o.max_chunks) {
      out.dropped.push_back(c.chunk_id);
      continue;
    }
    const std::size_t text_cost = c.tokens >= 0 ? static_cast<std::size_t>(c.tokens) : estimate_tokens(c.text);
    std::size_t cost = text_cost + estimate_tokens("[" + std::to_string(picked.size() + 1) + "] ");
    if (!picked.empty()) cost += sep_cost;
    auto ctx = o.doc_context.find(c.doc_id);
    const bool new_ctx = ctx != o.doc_context.end() && !docs_with_context.count(c.doc_id);
    if (new_ctx) cost += estimate_tokens(ctx->second + "\n");
    if (used + cost > o.token_budget) {
      out.dropped.push_back(c.chunk_id);
      continue;
    }
    used += cost;
    if (new_ctx) docs_with_context.insert(c.doc_id);
    picked.push_back(i);
    picked_tokens.push_back(text_cost);
  }
  out.tokens_used = used;

  // Output order: positions of the selection ranks.
  const std::size_t m = picked.size();
  std::vector<std::size_t> slot(m);  // slot[position] = selection rank
  if (o.order == Order::kEnds) {
    std::size_t front = 0, back = m;
    for (std::size_t r = 0; r < m; ++r) {
      if (r % 2 == 0) slot[front++] = r;
      else slot[--back] = r;
    }
  } else {
    for (std::size_t r = 0; r < m; ++r) slot[r] = r;
  }
  std::set<std::string_view> ctx_done;
  for (std::size_t pos = 0; pos < m; ++pos) {
    const std::size_t r = slot[pos];
    const auto& c = chunks[picked[r]];
    if (pos > 0) out.context_text += "\n\n";
    out.context_text += "[" + std::to_string(pos + 1) + "] ";
    auto ctx = o.doc_context.find(c.doc_id);
    if (ctx != o.doc_context.end() && ctx_done.insert(c.doc_id).second) {
      out.context_text += ctx->second;
      out.context_text += "\n";
    }
    out.context_text += c.text;
    out.sources.push_back(Source{pos + 1, c.chunk_id, c.doc_id, c.start, c.end, c.score, picked_tokens[r]});
  }
  return out;
}

Result<std::string> assemble_json(std::string_view request) {
  using jsonr::json;
  auto pj = jsonr::parse(request, "assembly request");
  if (!pj.ok()) return pj.error();
  const json& j = pj.value();
  RAGWASM_TRY(jsonr::expect_object(j, "", {"chunks", "docContext", "tokenBudget", "order", "maxChunks"}));
  auto cit = j.find("chunks");
  if (cit == j.end()) return make_error(ErrorCode::kInvalidArgument, "chunks: missing");
  RAGWASM_TRY(jsonr::array(*cit, "chunks"));
  std::vector<ContextChunk> chunks;
  for (std::size_t i = 0; i < cit->size(); ++i) {
    const std::string p = jsonr::index_path("chunks", i);
    const json& c = (*cit)[i];
    RAGWASM_TRY(jsonr::expect_object(c, p, {"chunkId", "docId", "text", "score", "start", "end", "tokens"}));
    ContextChunk x;
    for (const char* req : {"chunkId", "text"}) {
      if (c.find(req) == c.end()) return make_error(ErrorCode::kInvalidArgument, jsonr::key_path(p, req) + ": missing");
    }
    auto id = jsonr::string(c["chunkId"], p + ".chunkId", false);
    if (!id.ok()) return id.error();
    x.chunk_id = std::move(id).value();
    auto t = jsonr::string(c["text"], p + ".text");
    if (!t.ok()) return t.error();
    x.text = std::move(t).value();
    if (c.find("docId") != c.end()) {
      auto d = jsonr::string(c["docId"], p + ".docId");
      if (!d.ok()) return d.error();
      x.doc_id = std::move(d).value();
    } else {
      x.doc_id = x.chunk_id;
    }
    if (c.find("score") != c.end()) {
      auto v = jsonr::number(c["score"], p + ".score");
      if (!v.ok()) return v.error();
      x.score = v.value();
    }
    for (const char* k : {"start", "end"}) {
      if (c.find(k) != c.end()) {
        auto v = jsonr::number(c[k], jsonr::key_path(p, k), 0.0);
        if (!v.ok()) return v.error();
        (std::string(k) == "start" ? x.start : x.end) = v.value();
      }
    }
    if (c.find("tokens") != c.end()) {
      auto v = jsonr::integer(c["tokens"], p + ".tokens", 0, 1000000000);
      if (!v.ok()) return v.error();
      x.tokens = static_cast<double>(v.value());
    }
    chunks.push_back(std::move(x));
  }
  AssemblyOptions o;
  if (auto it = j.find("docContext"); it != j.end()) {
    if (!it->is_object()) return jsonr::type_error("docContext", "an object {docId: text}", *it);
    for (auto d = it->begin(); d != it->end(); ++d) {
      auto s = jsonr::string(d.value(), jsonr::key_path("docContext", d.key()));
      if (!s.ok()) return s.error();
      o.doc_context[d.key()] = std::move(s).value();
    }
  }
  if (auto it = j.find("tokenBudget"); it != j.end()) {
    auto v = jsonr::integer(*it, "tokenBudget", 1, 100000000);
    if (!v.ok()) return v.error();
    o.token_budget = static_cast<std::size_t>(v.value());
  }
  if (auto it = j.find("order"); it != j.end()) {
    auto v = jsonr::one_of(*it, "order", {"score", "ends"});
    if (!v.ok()) return v.error();
    o.order = v.value() == "ends" ? Order::kEnds : Order::kScore;
  }
  if (auto it = j.find("maxChunks"); it != j.end()) {
    auto v = jsonr::integer(*it, "maxChunks", 0, 100000000);
    if (!v.ok()) return v.error();
    o.max_chunks = static_cast<std::size_t>(v.value());
  }
  auto r = assemble(chunks, o);
  if (!r.ok()) return r.error();
  const auto& a = r.value();
  json sources = json::array();
  for (const auto& s : a.sources) {
    json x = {{"n", s.n}, {"chunkId", s.chunk_id}, {"docId", s.doc_id}, {"score", s.score}, {"tokens", s.tokens}};
    x["start"] = s.start >= 0 ? json(s.start) : json(nullptr);
    x["end"] = s.end >= 0 ? json(s.end) : json(nullptr);
    sources.push_back(std::move(x));
  }
  json out = {{"contextText", a.context_text}, {"sources", std::move(sources)}, {"tokensUsed", a.tokens_used}, {"dropped", a.dropped}};
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace ragwasm::context
