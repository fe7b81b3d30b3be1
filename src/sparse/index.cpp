#include "sparse/index.h"

#include "sparse/index_internal.h"

namespace ragwasm::sparse {

const char* scorer_name(Scorer s) {
  switch (s) {
    case Scorer::kLucene: return "lucene";
    case Scorer::kRobertson: return "robertson";
    case Scorer::kAtire: return "atire";
    case Scorer::kBm25L: return "bm25l";
    case Scorer::kBm25Plus: return "bm25plus";
  }
  return "lucene";
}

Bm25Index::Bm25Index(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Bm25Index::Bm25Index(Bm25Index&&) noexcept = default;
Bm25Index& Bm25Index::operator=(Bm25Index&&) noexcept = default;
Bm25Index::~Bm25Index() = default;

namespace {
Status validate_options(const IndexOptions& o) {
  if (o.fields.empty() || o.fields.size() > kMaxFields) {
    return make_error(ErrorCode::kInvalidArgument, "index fields: expected 1 to 16 fields, got " + std::to_string(o.fields.size()));
  }
  for (std::size_t i = 0; i < o.fields.size(); ++i) {
    const auto& f = o.fields[i];
    if (f.name.empty() || f.name.size() > 256) {
      return make_error(ErrorCode::kInvalidArgument, "index fields[" + std::to_string(i) + "].name: expected 1 to 256 bytes");
    }
    if (!(f.boost > 0) || !std::isfinite(f.boost) || f.boost > 1e6) {
      return make_error(ErrorCode::kInvalidArgument, "index fields[" + std::to_string(i) + "].boost: expected a number in (0, 1e6], got " + std::to_string(f.boost));
    }
    for (std::size_t j = 0; j < i; ++j)
      if (o.fields[j].name == f.name) return make_error(ErrorCode::kInvalidArgument, "index fields: duplicate field name '" + f.name + "'");
  }
  const auto& s = o.scoring;
  if (!(s.k1 >= 0 && s.k1 <= 100)) return make_error(ErrorCode::kInvalidArgument, "index k1: expected a number in [0, 100], got " + std::to_string(s.k1));
  if (!(s.b >= 0 && s.b <= 1)) return make_error(ErrorCode::kInvalidArgument, "index b: expected a number in [0, 1], got " + std::to_string(s.b));
  if (std::isnan(s.delta) || s.delta > 100) return make_error(ErrorCode::kInvalidArgument, "index delta: expected a number in [0, 100]");
  return Status::success();
}
}  // namespace

Result<Bm25Index> Bm25Index::create(const IndexOptions& options) {
  RAGWASM_TRY(validate_options(options));
  auto a = Analyzer::create(options.analyzer);
  if (!a.ok()) return a.error();
  auto impl = std::make_unique<Impl>(std::move(a).value());
  impl->opt = options;
  impl->nf = options.fields.size();
  impl->total_len.assign(impl->nf, 0);
  const auto& s = options.scoring;
  impl->delta = s.delta >= 0 ? s.delta : (s.scorer == Scorer::kBm25L ? 0.5 : (s.scorer == Scorer::kBm25Plus ? 1.0 : 0.0));
  return Bm25Index(std::move(impl));
}

const IndexOptions& Bm25Index::options() const { return impl_->opt; }
Status Bm25Index::add(const Document& doc) { return impl_->add(doc); }
Status Bm25Index::upsert(const Document& doc) {
  // validate first so that a bad replacement leaves the old document in place
  RAGWASM_TRY(impl_->validate(doc, true));
  if (impl_->id_map.count(doc.id) != 0) RAGWASM_TRY(impl_->remove(doc.id));
  return impl_->add(doc);
}
Status Bm25Index::remove(std::string_view id) { return impl_->remove(id); }
Result<std::size_t> Bm25Index::remove_many(const std::vector<std::string_view>& ids, bool ignore_missing) {
  if (!ignore_missing) {
    for (std::string_view id : ids) {
      if (!contains(id)) return make_error(ErrorCode::kNotFound, "document id '" + std::string(id) + "' does not exist");
    }
  }
  std::size_t removed = 0;
  for (std::string_view id : ids) {
    if (!contains(id)) continue;  // unknown (ignore_missing) or listed twice
    if (Status st = impl_->remove(id); !st.ok()) return st.error();
    ++removed;
  }
  return removed;
}
bool Bm25Index::contains(std::string_view id) const { return impl_->id_map.count(std::string(id)) != 0; }
void Bm25Index::compact() { impl_->compact(); }

}  // namespace ragwasm::sparse
