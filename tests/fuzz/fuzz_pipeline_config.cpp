// libFuzzer entry: the JSON surfaces of the pipeline config, fusion, tuning, shaping and context
// assembly parsers. Any input must give a value or a clean error: no crash, no exception, no UB; a
// parsed config must round-trip through to_json.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "context/assembly.h"
#include "fusion/fusion_json.h"
#include "pipeline/config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  auto c = ragwasm::pipeline::parse_config(in);
  if (c.ok()) {
    const std::string j = ragwasm::pipeline::to_json(c.value());
    auto again = ragwasm::pipeline::parse_config(j);
    if (!again.ok() || ragwasm::pipeline::to_json(again.value()) != j) std::abort();
    if (!again.value().deprecations.empty()) std::abort();  // to_json writes only the new names
  }
  (void)ragwasm::fusion::fuse_json(in);
  (void)ragwasm::fusion::tune_json(in);
  (void)ragwasm::fusion::expand_json(in);
  (void)ragwasm::fusion::aggregate_json(in);
  (void)ragwasm::fusion::mmr_json(in, {}, 0, {});
  (void)ragwasm::context::assemble_json(in);
  return 0;
}
