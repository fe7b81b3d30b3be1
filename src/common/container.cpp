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

std::string pack(std::string_view magic, std::uint32_t version, const std::vector<Section>& sections) {
  RAGWASM_DCHECK(magic.size() == kMagicBytes);
  std::size_t size = kHeaderBytes + kSealBytes;
  for (const auto& s : sections) size += kSectionHeaderBytes + s.bytes.size();
  std::string out;
  out.reserve(size);
  out.append(magic.data(), magic.size());
  put_u32(out, version);
  put_u32(out, static_cast<std::uint32_t>(sections.size()));
  for (const auto& s : sections) {
    put_u32(out, s.tag);
    put_u64(out, s.bytes.size());
    out.append(s.bytes.data(), s.bytes.size());
  }
  put_u64(out, xxh64(out));
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

Result<Unpacked> unpack(std::string_view bytes, const Format& f) {
  const std::string what(f.what);
  auto corrupt = [&](const std::string& why) {
    return make_error(ErrorCode::kCorruptIndex, "bytes: not a valid saved " + what + " (" + why + ")");
  };
  if (bytes.size() < kHeaderBytes + kSealBytes) {
    return corrupt("too short: " + std::to_string(bytes.size()) + " bytes, a container has at least " +
                   std::to_string(kHeaderBytes + kSealBytes));
  }
  if (bytes.substr(0, kMagicBytes) != f.magic) {
    return corrupt("wrong magic; expected a file written by " + what + " (\"" + std::string(f.magic) + "\")");
  }
  Unpacked u;
  u.version = get_u32(bytes.data() + kMagicBytes);
  if (u.version < f.min_version || u.version > f.max_version) {
    const std::string reads = f.min_version == f.max_version
                                  ? "version " + std::to_string(f.max_version)
                                  : "versions " + std::to_string(f.min_version) + " to " + std::to_string(f.max_version);
    return make_error(ErrorCode::kUnsupportedVersion, "bytes: " + what + " format version " + std::to_string(u.version) +
                                                          " is not supported (this build reads " + reads + ")");
  }
  const std::string_view body = bytes.substr(0, bytes.size() - kSealBytes);
  const std::uint64_t stored = get_u64(bytes.data() + body.size());
  const bool legacy = u.version < f.sealed_from && f.legacy_seal != nullptr;
  if ((legacy ? f.legacy_seal(body) : xxh64(body)) != stored) {
    return corrupt("checksum mismatch: the bytes were truncated or changed");
  }
  const std::uint32_t count = get_u32(bytes.data() + kMagicBytes + 4);
  std::size_t at = kHeaderBytes;
  // Each section needs at least its header: bounds `count` before any allocation.
  if (count > (body.size() - at) / kSectionHeaderBytes) return corrupt("section count larger than the data");
  u.sections.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    if (body.size() - at < kSectionHeaderBytes) return corrupt("section header out of bounds");
    const std::uint32_t tag = get_u32(body.data() + at);
    const std::uint64_t len = get_u64(body.data() + at + 4);
    at += kSectionHeaderBytes;
    if (len > body.size() - at) return corrupt("section " + std::to_string(tag) + " length past the end");
    if (u.find(tag) != nullptr) return corrupt("duplicate section " + std::to_string(tag));
    u.sections.push_back(Section{tag, body.substr(at, static_cast<std::size_t>(len))});
    at += static_cast<std::size_t>(len);
  }
  if (at != body.size()) return corrupt("trailing bytes after the sections");
  return u;
}

}  // namespace ragwasm::container
