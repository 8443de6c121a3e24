#!/bin/sh
# Builds the C++ reference program with this folder's driver in a scratch folder (never in the repository):
#   benchmarks/cpp2048/build.sh SOURCE_CHECKOUT [OUT_DIR]   -> prints the program's path
# SOURCE_CHECKOUT: a checkout of github.com/nneonneo/2048-ai (its 2048.cpp, 2048.h, platdefs.h, config.h).
set -eu
src=$1
out=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
cp "$src/2048.cpp" "$src/2048.h" "$src/platdefs.h" "$src/config.h" "$out/"
g++ -O3 -march=native -std=c++11 -DHAVE_CONFIG_H -I"$out" -o "$out/cpp2048_driver" "$here/driver.cpp" >&2
echo "$out/cpp2048_driver"
