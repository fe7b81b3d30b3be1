// Semantic chunking over UTF-16 sentence spans and their embeddings (see chunk.h semantic_chunks16).
#include <string>
#include <vector>

#include "chunk/chunk.h"
#include "text/utf8.h"

namespace ragwasm::chunk {

Result<SemanticResult> semantic_chunks16(std::string_view text, const std::vector<std::uint32_t>& spans16, const std::vector<float>& embeddings,
                                         std::size_t dim, const SemanticOptions& o) {
  const std::size_t n = spans16.size() / 2;
  if (dim == 0 || embeddings.size() != n * dim) {
    return make_error(ErrorCode::kDimensionMismatch, "embeddings: expected " + std::to_string(n) + " x " + std::to_string(dim) + " values, got " +
                                                         std::to_string(embeddings.size()));
  }
  text::OffsetMapper map(text);
  std::vector<ChunkSpan> units(n);
  for (std::size_t i = 0; i < n; ++i) {
    units[i].start = map.to_utf8(spans16[2 * i]);
    units[i].end = map.to_utf8(spans16[2 * i + 1]);
  }
  SemanticResult out;
  out.distances = cosine_distances(embeddings.data(), n, dim);
  auto r = semantic_chunks(text, units, out.distances, o);
  if (!r.ok()) return r.error();
  out.chunks = std::move(r).value();
  out.threshold = breakpoint_threshold(out.distances, o.method, o.amount);
  return out;
}

}  // namespace ragwasm::chunk
