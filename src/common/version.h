// The library version, kept equal to package.json's "version" (checked by tests/js/core/foundation.test.mjs).
#pragma once

namespace ragwasm {
constexpr const char* kVersion = "0.1.0";
}
