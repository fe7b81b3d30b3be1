// Embind for src/common: the one saved container (container::Writer / unpack_layout, docs/formats.md)
// for the JS-side saved objects (Collection, sharded indexes). Converts and calls; the framing, the
// checks and the XXH64 seal are src/common/container.cpp's. The sections stay in JS: a collection's
// payload can be half a gigabyte, and a WASM heap never shrinks, so the bytes cross into the heap
// only in windows of kWindow bytes (to be hashed) and never whole.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bind_common.h"
#include "bind_saved.h"
#include "common/container.h"

namespace ragwasm::wasm {
namespace {

constexpr std::size_t kWindow = 1 << 20;

// Copies bytes[at, at + n) (a JS Uint8Array) into dst (heap memory of n bytes).
void copy_in(const val& bytes, double at, std::size_t n, std::uint8_t* dst) {
  val(emscripten::typed_memory_view(n, dst)).call<void>("set", bytes.call<val>("subarray", at, at + static_cast<double>(n)));
}

// container::Writer for JS: the framing of a container whose sections stay in JS, written in turn
// (web/src/core/container.js containerStream: the section lengths and order are checked there). Each
// call returns the framing bytes to write at that point; payload() hashes a section's piece, copied
// into the heap in windows of kWindow bytes.
class ContainerWriter {
 public:
  ContainerWriter(const std::string& magic, std::uint32_t version, std::uint32_t sections)
      : w_(magic.size() == container::kMagicBytes ? magic : std::string(container::kMagicBytes, ' '), version, sections), window_(kWindow) {}
  val start() { return guard([&] { return reply_ok(bytes(w_.start())); }); }
  val section(std::uint32_t tag, double length) {
    return guard([&] { return reply_ok(bytes(w_.section(tag, static_cast<std::uint64_t>(length)))); });
  }
  val payload(const val& piece) {
    return guard([&] {
      const auto n = piece["length"].as<double>();
      for (double off = 0; off < n; off += kWindow) {
        const auto m = static_cast<std::size_t>(n - off < kWindow ? n - off : kWindow);
        copy_in(piece, off, m, window_.data());
        w_.payload(std::string_view(reinterpret_cast<const char*>(window_.data()), m));
      }
      return reply_ok(val::undefined());
    });
  }
  val seal() { return guard([&] { return reply_ok(bytes(w_.seal())); }); }

 private:
  static val bytes(const std::string& framing) {
    return val(emscripten::typed_memory_view(framing.size(), reinterpret_cast<const std::uint8_t*>(framing.data()))).call<val>("slice");
  }
  container::Writer w_;
  std::vector<std::uint8_t> window_;
};

// container::Source over a JS Uint8Array: framing reads and the seal in windows.
class JsSource final : public container::Source {
 public:
  explicit JsSource(const val& bytes) : bytes_(bytes), size_(bytes["length"].as<double>()), window_(kWindow) {}
  std::uint64_t size() const override { return static_cast<std::uint64_t>(size_); }
  std::string read(std::uint64_t at, std::size_t n) const override {
    std::string out(n, '\0');
    copy_in(bytes_, static_cast<double>(at), n, reinterpret_cast<std::uint8_t*>(out.data()));
    return out;
  }
  std::uint64_t seal(std::uint64_t n, std::uint64_t (*legacy)(std::string_view)) const override {
    if (legacy != nullptr) return legacy(read(0, static_cast<std::size_t>(n)));  // no JS-side format has one
    Xxh64Stream h;
    for (std::uint64_t off = 0; off < n; off += kWindow) {
      const auto m = static_cast<std::size_t>(n - off < kWindow ? n - off : kWindow);
      copy_in(bytes_, static_cast<double>(off), m, window_.data());
      h.update(window_.data(), m);
    }
    return h.digest();
  }

 private:
  val bytes_;
  double size_;
  mutable std::vector<std::uint8_t> window_;
};

// -> {version, tags: Uint32Array, starts: Float64Array, lengths: Float64Array} (byte positions in bytes)
val unpack_container(val bytes, const std::string& magic, const std::string& what, std::uint32_t min_version, std::uint32_t max_version) {
  return guard([&] {
    if (magic.size() != container::kMagicBytes) return reply_error("INTERNAL", "ragwasm: container binding: magic must be 8 bytes");
    container::Format f;
    f.magic = magic;
    f.what = what;
    f.min_version = min_version;
    f.max_version = max_version;
    auto u = container::unpack_layout(JsSource(bytes), f);
    if (!u.ok()) return reply_error(u.error());
    std::vector<std::uint32_t> tags;
    std::vector<double> starts, lengths;
    for (const auto& s : u.value().sections) {
      tags.push_back(s.tag);
      starts.push_back(static_cast<double>(s.offset));
      lengths.push_back(static_cast<double>(s.length));
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
  emscripten::class_<ContainerWriter>("common_ContainerWriter")
      .constructor<const std::string&, std::uint32_t, std::uint32_t>()
      .function("start", &ContainerWriter::start)
      .function("section", &ContainerWriter::section)
      .function("payload", &ContainerWriter::payload)
      .function("seal", &ContainerWriter::seal);
  emscripten::function("common_unpackContainer", &unpack_container);
  emscripten::class_<SavedSection>("common_SavedSection")
      .function("where", &SavedSection::where)
      .function("hash", &SavedSection::hash);
}

}  // namespace ragwasm::wasm
