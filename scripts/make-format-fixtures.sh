#!/usr/bin/env bash
# Writes tests/fixtures/formats/<version>/ (saved BM25 index, vector indexes f32/int8/binary/HNSW,
# static model, expected.json) with the C++ writers of this checkout. Run once per format version,
# BEFORE a writer changes, and commit the result: the format tests then prove that files written by
# that version still load and answer the same. Usage: scripts/make-format-fixtures.sh v1
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: scripts/make-format-fixtures.sh <version, e.g. v1>}
out=tests/fixtures/formats/$version
mkdir -p "$out" build/fixtures
g++ -std=c++17 -O1 -Wall -Wextra -Werror -Isrc -isystem build/native/hostinc tests/fixtures/formats/make_fixtures.cpp \
  src/sparse/*.cpp src/dense/*.cpp src/embed/*.cpp src/text/*.cpp $(ls src/common/*.cpp 2>/dev/null) -o build/fixtures/make_fixtures
build/fixtures/make_fixtures "$out"
ls -l "$out"
