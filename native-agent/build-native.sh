#!/usr/bin/env bash
# Builds libheaptap.so with gcc and the JDK's own headers; called by Maven (compile phase).
# Usage: build-native.sh <java.home> <output dir>
set -euo pipefail
java_home="$1"
out_dir="$2"
here="$(cd "$(dirname "$0")" && pwd)"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x86_64 ;;
  *) echo "heaptap's native agent is built for linux-x86_64 only (this is $(uname -s)-$(uname -m))" >&2; exit 1 ;;
esac

include="$java_home/include"
[ -f "$include/jvmti.h" ] || { echo "no JDK headers at $include (run Maven with a full JDK)" >&2; exit 1; }

mkdir -p "$out_dir/$platform"
sources=("$here"/src/main/cpp/*.cpp)
${CXX:-g++} -std=c++17 -O2 -g0 -fPIC -fvisibility=hidden -fno-exceptions -fno-rtti \
  -Wall -Wextra -Werror -Wno-unused-parameter \
  -I"$include" -I"$include/linux" \
  -shared -static-libstdc++ -static-libgcc -Wl,--no-undefined -Wl,-z,defs -Wl,-z,now \
  -o "$out_dir/$platform/libheaptap.so" "${sources[@]}" -lpthread
# Its SHA-256, computed once here: it names the folder the CLI extracts the library to (NativeLibrary),
# and hashing 450 KB in every fresh CLI JVM took 60-75 ms of CPU (the hashing loop also JIT-compiled).
(cd "$out_dir/$platform" && sha256sum libheaptap.so | cut -d' ' -f1 > libheaptap.so.sha256)
