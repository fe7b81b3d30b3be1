// Embind for src/common: the one saved container (container::pack / unpack, docs/formats.md) for the
// JS-side saved objects (Collection, sharded indexes). Converts and calls; the framing, the checks
// and the XXH64 seal are src/common/container.cpp's.
#include <cstdint>
#include <string>
#include <vector>

#include "bind_common.h"
#include "common/container.h"

namespace ragwasm::wasm {
namespace {

// payload = the sections' bytes back to back; tags and lengths one per section.
val pack_container(const std::string& magic, std::uint32_t version, val tags_js, const Bytes& payload, val lengths_js) {
  return guard([&] {
    const auto tags = emscripten::convertJSArrayToNumberVector<std::uint32_t>(tags_js);
    const auto lengths = emscripten::convertJSArrayToNumberVector<double>(lengths_js);
    if (magic.size() != container::kMagicBytes || tags.size() != lengths.size()) {
      return reply_error("INTERNAL", "ragwasm: container binding: magic must be 8 bytes and tags match lengths");
    }
    std::vector<container::Section> sections;
    sections.reserve(tags.size());
    std::size_t at = 0;
    for (std::size_t i = 0; i < tags.size(); ++i) {
      if (!(lengths[i] >= 0 && lengths[i] <= static_cast<double>(payload.size() - at))) {
        return reply_error("INTERNAL", "ragwasm: container binding: section lengths do not cover the payload");
      }
      const auto n = static_cast<std::size_t>(lengths[i]);
      sections.push_back({tags[i], std::string_view(payload).substr(at, n)});
      at += n;
    }
    if (at != payload.size()) return reply_error("INTERNAL", "ragwasm: container binding: section lengths do not cover the payload");
    const std::string out = container::pack(magic, version, sections);
    return reply_ok(val(emscripten::typed_memory_view(out.size(), reinterpret_cast<const std::uint8_t*>(out.data()))).call<val>("slice"));
  });
}

// -> {version, tags: Uint32Array, starts: Float64Array, lengths: Float64Array} (byte positions in bytes)
val unpack_container(const Bytes& bytes, const std::string& magic, const std::string& what, std::uint32_t min_version, std::uint32_t max_version) {
  return guard([&] {
    if (magic.size() != container::kMagicBytes) return reply_error("INTERNAL", "ragwasm: container binding: magic must be 8 bytes");
    container::Format f;
    f.magic = magic;
    f.what = what;
    f.min_version = min_version;
    f.max_version = max_version;
    auto u = container::unpack(bytes, f);
    if (!u.ok()) return reply_error(u.error());
    std::vector<std::uint32_t> tags;
    std::vector<double> starts, lengths;
    for (const auto& s : u.value().sections) {
      tags.push_back(s.tag);
      starts.push_back(static_cast<double>(s.bytes.data() - bytes.data()));
      lengths.push_back(static_cast<double>(s.bytes.size()));
    }
    val r = val::object();
    r.set("version", u.value().version);
    r.set("tags", to_typed_array(tags));
    r.set("starts", to_typed_array(starts));
    r.set("lengths", to_typed_array(lengths));
    return reply_ok(r);
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ragwasm_common) {
  emscripten::function("common_packContainer", &pack_container);
  emscripten::function("common_unpackContainer", &unpack_container);
}

}  // namespace ragwasm::wasm
