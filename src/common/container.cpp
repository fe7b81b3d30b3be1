#include "common/container.h"

#include <cstring>

#include "common/check.h"
#include "common/checksum.h"

namespace ragwasm::container {
namespace {

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
std::uint32_t get_u32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(p[i]);
  return v;
}
std::uint64_t get_u64(const char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(p[i]);
  return v;
}

}  // namespace

Writer::Writer(std::string_view magic, std::uint32_t version, std::uint32_t sections)
    : magic_(magic), version_(version), sections_(sections) {
  RAGWASM_DCHECK(magic.size() == kMagicBytes);
}

std::string Writer::start() {
  std::string out(magic_);
  put_u32(out, version_);
  put_u32(out, sections_);
  hash_.update(out);
  return out;
}

std::string Writer::section(std::uint32_t tag, std::uint64_t length) {
  RAGWASM_DCHECK(left_ == 0 && written_ < sections_);
  std::string out;
  put_u32(out, tag);
  put_u64(out, length);
  hash_.update(out);
  ++written_;
  left_ = length;
  return out;
}

void Writer::payload(std::string_view piece) {
  RAGWASM_DCHECK(piece.size() <= left_);
  hash_.update(piece);
  left_ -= piece.size();
}

std::string Writer::seal() {
  RAGWASM_DCHECK(left_ == 0 && written_ == sections_);
  std::string out;
  put_u64(out, hash_.digest());
  return out;
}

std::string pack(std::string_view magic, std::uint32_t version, const std::vector<Section>& sections) {
  std::size_t size = kHeaderBytes + kSealBytes;
  for (const auto& s : sections) size += kSectionHeaderBytes + s.bytes.size();
  std::string out;
  out.reserve(size);
  Writer w(magic, version, static_cast<std::uint32_t>(sections.size()));
  out += w.start();
  for (const auto& s : sections) {
    out += w.section(s.tag, s.bytes.size());
    w.payload(s.bytes);
    out.append(s.bytes.data(), s.bytes.size());
  }
  out += w.seal();
  return out;
}

bool peek(std::string_view bytes, std::string_view* magic, std::uint32_t* version) {
  if (bytes.size() < kMagicBytes + 4) return false;
  *magic = bytes.substr(0, kMagicBytes);
  *version = get_u32(bytes.data() + kMagicBytes);
  return true;
}

const Section* Unpacked::find(std::uint32_t tag) const {
  for (const auto& s : sections)
    if (s.tag == tag) return &s;
  return nullptr;
}

namespace {

class MemorySource final : public Source {
 public:
  explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  std::string read(std::uint64_t at, std::size_t n) const override {
    return std::string(bytes_.substr(static_cast<std::size_t>(at), n));
  }
  std::uint64_t seal(std::uint64_t n, std::uint64_t (*legacy)(std::string_view)) const override {
    const std::string_view body = bytes_.substr(0, static_cast<std::size_t>(n));
    return legacy != nullptr ? legacy(body) : xxh64(body);
  }

 private:
  std::string_view bytes_;
};

}  // namespace

Result<Layout> unpack_layout(const Source& source, const Format& f) {
  const std::string what(f.what);
  auto corrupt = [&](const std::string& why) {
    return make_error(ErrorCode::kCorruptIndex, "bytes: not a valid saved " + what + " (" + why + ")");
  };
  const std::uint64_t size = source.size();
  if (size < kHeaderBytes + kSealBytes) {
    return corrupt("too short: " + std::to_string(size) + " bytes, a container has at least " +
                   std::to_string(kHeaderBytes + kSealBytes));
  }
  const std::string head = source.read(0, kHeaderBytes);
  if (std::string_view(head).substr(0, kMagicBytes) != f.magic) {
    return corrupt("wrong magic; expected a file written by " + what + " (\"" + std::string(f.magic) + "\")");
  }
  Layout u;
  u.version = get_u32(head.data() + kMagicBytes);
  if (u.version < f.min_version || u.version > f.max_version) {
    const std::string reads = f.min_version == f.max_version
                                  ? "version " + std::to_string(f.max_version)
                                  : "versions " + std::to_string(f.min_version) + " to " + std::to_string(f.max_version);
    return make_error(ErrorCode::kUnsupportedVersion, "bytes: " + what + " format version " + std::to_string(u.version) +
                                                          " is not supported (this build reads " + reads + ")");
  }
  const std::uint64_t body = size - kSealBytes;
  const std::uint64_t stored = get_u64(source.read(body, kSealBytes).data());
  const bool legacy = u.version < f.sealed_from && f.legacy_seal != nullptr;
  if (source.seal(body, legacy ? f.legacy_seal : nullptr) != stored) {
    return corrupt("checksum mismatch: the bytes were truncated or changed");
  }
  const std::uint32_t count = get_u32(head.data() + kMagicBytes + 4);
  std::uint64_t at = kHeaderBytes;
  // Each section needs at least its header: bounds `count` before any allocation.
  if (count > (body - at) / kSectionHeaderBytes) return corrupt("section count larger than the data");
  u.sections.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    if (body - at < kSectionHeaderBytes) return corrupt("section header out of bounds");
    const std::string sh = source.read(at, kSectionHeaderBytes);
    const std::uint32_t tag = get_u32(sh.data());
    const std::uint64_t len = get_u64(sh.data() + 4);
    at += kSectionHeaderBytes;
    if (len > body - at) return corrupt("section " + std::to_string(tag) + " length past the end");
    for (const auto& s : u.sections)
      if (s.tag == tag) return corrupt("duplicate section " + std::to_string(tag));
    u.sections.push_back(SectionSpan{tag, at, len});
    at += len;
  }
  if (at != body) return corrupt("trailing bytes after the sections");
  return u;
}

Result<Unpacked> unpack(std::string_view bytes, const Format& f) {
  auto l = unpack_layout(MemorySource(bytes), f);
  if (!l.ok()) return l.error();
  Unpacked u;
  u.version = l.value().version;
  u.sections.reserve(l.value().sections.size());
  for (const auto& s : l.value().sections) {
    u.sections.push_back(Section{s.tag, bytes.substr(static_cast<std::size_t>(s.offset), static_cast<std::size_t>(s.length))});
  }
  return u;
}

}  // namespace ragwasm::container
