// The one container of every saved ragwasm object (BM25 index, vector index, and next the static
// model and the JS Collection; docs/formats.md). Little-endian:
//
//   offset 0   char[8] magic      names the object: "RWSPARSE", "RWVECTOR", ...
//          8   u32     version    the object's format version
//         12   u32     sections   count
//         16   per section: u32 tag | u64 length | length bytes of payload
//        end   u64     XXH64 (seed 0) of every byte before it
//
// unpack() checks, in this order: size, magic, version (UNSUPPORTED_VERSION naming the versions this
// build reads), checksum, then every section header against the bytes left, duplicate tags and
// trailing bytes (CORRUPT_INDEX). Payloads are views into the input (no copy). Unknown tags are
// returned too: a reader ignores tags it does not know.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "common/checksum.h"
#include "common/result.h"

namespace ragwasm::container {

constexpr std::size_t kMagicBytes = 8;
constexpr std::size_t kHeaderBytes = 16;   // magic + version + section count
constexpr std::size_t kSectionHeaderBytes = 12;
constexpr std::size_t kSealBytes = 8;

struct Section {
  std::uint32_t tag = 0;
  std::string_view bytes;
};

// Writes a container. magic must be 8 bytes (checked by RAGWASM_DCHECK: it is a constant of the caller).
std::string pack(std::string_view magic, std::uint32_t version, const std::vector<Section>& sections);

// The same bytes as pack(), written piece by piece by a caller that holds the payloads elsewhere (the
// WASM binding: a collection's sections stay in JS): start(), then per section section() and its
// `length` bytes through payload() in pieces of any size (the caller writes them out itself), then
// seal(). Each call returns the framing bytes to write at that point. pack() is this writer.
class Writer {
 public:
  Writer(std::string_view magic, std::uint32_t version, std::uint32_t sections);
  std::string start();                                            // 16 bytes: magic, version, count
  std::string section(std::uint32_t tag, std::uint64_t length);   // 12 bytes: tag, length
  void payload(std::string_view piece);                           // hashes a piece of the section
  std::string seal();                                             // 8 bytes: XXH64 of all before

 private:
  std::string magic_;
  std::uint32_t version_;
  std::uint32_t sections_;
  std::uint32_t written_ = 0;   // sections started
  std::uint64_t left_ = 0;      // payload bytes the current section still expects
  Xxh64Stream hash_;
};

// pack() for payloads that exist nowhere yet (an index's save): the caller plans every section's
// exact length first, then writes each payload straight into the one output buffer, which is
// reserved once at the container's exact size, so the payloads exist once (in the result) and no
// growing buffer doubles them. Per section: next() writes its head and returns the buffer to append
// exactly the planned length to; done() seals. Buffer: std::string or std::vector<std::uint8_t>.
// A payload whose length differs from its plan is a bug of the caller (std::logic_error).
template <class Buffer>
class Packer {
 public:
  using Plan = std::vector<std::pair<std::uint32_t, std::uint64_t>>;  // (tag, payload length) in order
  Packer(std::string_view magic, std::uint32_t version, Plan plan)
      : w_(magic, version, static_cast<std::uint32_t>(plan.size())), plan_(std::move(plan)) {
    std::size_t size = kHeaderBytes + kSealBytes;
    for (const auto& p : plan_) size += kSectionHeaderBytes + static_cast<std::size_t>(p.second);
    out_.reserve(size);
    put(w_.start());
  }
  Buffer& next() {
    close();
    const auto& p = plan_.at(next_++);
    put(w_.section(p.first, p.second));
    at_ = out_.size();
    open_ = true;
    return out_;
  }
  Buffer done() {
    close();
    if (next_ != plan_.size()) throw std::logic_error("container::Packer: fewer sections written than planned");
    put(w_.seal());
    return std::move(out_);
  }

 private:
  void put(const std::string& framing) { out_.insert(out_.end(), framing.begin(), framing.end()); }
  void close() {
    if (!open_) return;
    const std::size_t n = out_.size() - at_;
    if (n != plan_[next_ - 1].second) throw std::logic_error("container::Packer: a section's bytes differ from its planned length");
    w_.payload(std::string_view(reinterpret_cast<const char*>(out_.data()) + at_, n));
    open_ = false;
  }
  Writer w_;
  Plan plan_;
  Buffer out_;
  std::size_t next_ = 0;
  std::size_t at_ = 0;
  bool open_ = false;
};

struct Format {
  std::string_view magic;          // 8 bytes
  std::string_view what;           // named in messages, e.g. "Bm25Index"
  std::uint32_t min_version = 1;   // versions this build reads: [min_version, max_version]
  std::uint32_t max_version = 1;
  // Versions below `sealed_from` were sealed by `legacy_seal` instead of XXH64 (e.g. the BM25 index
  // v1 with FNV-1a); 0 = every version uses XXH64.
  std::uint32_t sealed_from = 0;
  std::uint64_t (*legacy_seal)(std::string_view bytes) = nullptr;
};

struct Unpacked {
  std::uint32_t version = 0;
  std::vector<Section> sections;  // in file order
  // The section with `tag`, or nullptr.
  const Section* find(std::uint32_t tag) const;
};

Result<Unpacked> unpack(std::string_view bytes, const Format& format);

// unpack() for bytes that are not in this memory (the WASM binding reads a JS Uint8Array through
// it): the same checks in the same order with the same messages, reading only the framing.
class Source {
 public:
  virtual ~Source() = default;
  virtual std::uint64_t size() const = 0;
  virtual std::string read(std::uint64_t at, std::size_t n) const = 0;  // in bounds (checked before)
  // The seal of the first n bytes: XXH64, or `legacy` when it is not null.
  virtual std::uint64_t seal(std::uint64_t n, std::uint64_t (*legacy)(std::string_view)) const = 0;
};
struct SectionSpan {
  std::uint32_t tag = 0;
  std::uint64_t offset = 0;  // of the payload, from the start of the bytes
  std::uint64_t length = 0;
};
struct Layout {
  std::uint32_t version = 0;
  std::vector<SectionSpan> sections;  // in file order
};
Result<Layout> unpack_layout(const Source& source, const Format& format);

// The 8-byte magic and u32 version at the start of bytes, if it is long enough (used to route a
// file to the reader of its version before unpacking).
bool peek(std::string_view bytes, std::string_view* magic, std::uint32_t* version);

}  // namespace ragwasm::container
