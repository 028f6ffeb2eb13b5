#!/usr/bin/env bash
# build.sh: everything `npm start`, `npm test` and `npm run bench` need.
#   build/attention.simd.wasm   kernels with wasm SIMD (-msimd128)
#   build/attention.relaxed.wasm  the same C with relaxed SIMD (-mrelaxed-simd: f32x4.relaxed_madd),
#                               compiled by Debian's clang-19 and linked by wasm-ld-19 against
#                               Emscripten's sysroot (emcc 3.1.6 emits a pre-standard opcode)
#   build/attention.wasm        the same C, scalar (no -msimd128, so no auto-vectorizer)
#   build/attention-only{.simd,.relaxed,}.wasm  the same three of the attention part alone
#                               (src/sources.txt): what loadAttention({ parts: 'attention' }) loads
#   dist/                       the figures bundle for embedding (when web/figures exists), with
#                               its .d.ts (scripts/figure-types.mjs)
#   web/embed/{hugo/data,jekyll/_data}/attention_figures.json  the figures the blog snippets accept
#   web/index.html              the article as served, from web/article.html (scripts/article.mjs)
# Missing tools are installed with apt-get when run as root; otherwise the
# exact command is printed and the build stops.
#   bash build.sh           what npm start needs
#   bash build.sh --test    also what npm test needs (Chromium, Firefox ESR, WebKitGTK's WebKitWebDriver
#                           and MiniBrowser with Xvfb, clang + libFuzzer, a CJK font, Hugo, Jekyll)
set -euo pipefail
cd "$(dirname "$0")"

need() { # need <command> <debian package>
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "build.sh: installing $2 (apt-get) ..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2") >/dev/null
  else
    echo "build.sh: '$1' is missing. Install it with: sudo apt-get install -y $2" >&2
    exit 1
  fi
}
need emcc emscripten
need cc gcc
need clang-19 clang-19
need wasm-ld-19 lld-19
if [ "${1:-}" = --test ]; then
  need chromium chromium
  need chromium-headless-shell chromium-headless-shell # the tests' Chromium (scripts/chromium.mjs)
  need firefox-esr firefox-esr
  need WebKitWebDriver webkit2gtk-driver
  need Xvfb xvfb
  need clang clang
  ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 ||
    need /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev
  # a CJK font, so the Chinese UI is drawn (and measured at 360 px) as readers see it
  ls /usr/share/fonts/truetype/wqy/wqy-microhei.ttc >/dev/null 2>&1 ||
    need /usr/share/fonts/truetype/wqy/wqy-microhei.ttc fonts-wqy-microhei
  # the blog engines the consumer tests build sites with (tests/consumers/blog-engines.test.js)
  need hugo hugo
  need jekyll jekyll
  # reading back the printed article (tests/browser/print.test.js)
  need pdftotext poppler-utils
fi
# a font for the figures' pictures (dist/snapshots/*.png; web/kit/picture/widths.js measures DejaVu Sans)
ls /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf >/dev/null 2>&1 ||
  need /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf fonts-dejavu-core
# node_modules, holding every package package.json names (a merge may have added one)
node -e "const p = require('./package.json'); const fs = require('fs');
  process.exit(Object.keys({ ...p.dependencies, ...p.devDependencies }).every((n) => fs.existsSync('node_modules/' + n + '/package.json')) ? 0 : 1)" ||
  npm install --no-audit --no-fund

# Debian's emscripten needs its own node modules (acorn) on NODE_PATH.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"

CFLAGS=(-std=c11 -O3 -Wall -Wextra -Werror)
# list FILE [PART]: the names in a list of src/ (sources.txt, exports.txt),
# without comments and blank lines; with PART, only those under "# [PART]".
list() {
  awk -v want="${2:-}" '/^#[[:space:]]*\[[a-z]+\]/ { match($0, /\[[a-z]+\]/); part = substr($0, RSTART + 1, RLENGTH - 2) }
    { sub(/#.*/, ""); gsub(/[[:space:]]/, "") } $0 != "" && (want == "" || part == want)' "src/$1"
}
# The memory cap is written once, in web/api/check.js (the JS checks sizes
# against it before calling in); both linkers take it from there.
MAX_MEMORY=$(node --input-type=module -e "import { MAX_MEMORY } from './web/api/check.js'; console.log(MAX_MEMORY)")
INITIAL_MEMORY=$((4 * 1024 * 1024))
STACK=$((256 * 1024))
EMFLAGS=(--no-entry -sSTANDALONE_WASM -sMALLOC=emmalloc -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=$MAX_MEMORY
  -sINITIAL_MEMORY=$INITIAL_MEMORY -sTOTAL_STACK=$STACK -sFILESYSTEM=0)

mkdir -p build
# Rebuild only when a source (or what sets the cap) is newer than the output.
stale() {
  [ ! -f "$1" ] || [ -n "$(find src -newer "$1" -print -quit)" ] || [ build.sh -nt "$1" ] ||
    [ web/api/check.js -nt "$1" ]
}

# engine NAME PART...: build/NAME{.simd,.relaxed,}.wasm from the sources and
# exports of those parts of src/sources.txt and src/exports.txt.
engine() {
  local name=$1 sources=() exports=() part
  shift
  for part in "$@"; do
    mapfile -t -O ${#sources[@]} sources < <(list sources.txt "$part" | sed 's|^|src/|')
    mapfile -t -O ${#exports[@]} exports < <(list exports.txt "$part")
  done
  local em=("${EMFLAGS[@]}" "-sEXPORTED_FUNCTIONS=[$(IFS=,; echo "${exports[*]}")]")
  # The attention part alone is built for size: without the relaxed build's
  # second register tile (src/gemm.c), which the figures' engine never runs.
  local defs=()
  [ "$name" = attention-only ] && defs=(-DATTN_ONE_TILE)
  if stale "build/$name.simd.wasm"; then
    emcc "${CFLAGS[@]}" "${defs[@]}" -msimd128 "${em[@]}" "${sources[@]}" -o "build/$name.simd.wasm"
  fi
  # The relaxed build: compile with -c and link with wasm-ld-19 directly (clang's
  # driver would run the wasm-opt on PATH, which rejects relaxed opcodes), with
  # the same libraries, exports and memory settings emcc uses for the others.
  # Without wasm-opt, what keeps it small: memcpy and memset as one bulk-memory
  # instruction each (every engine with relaxed SIMD has bulk memory), no
  # names section (--strip-all).
  if stale "build/$name.relaxed.wasm"; then
    # emcc builds the sysroot's libraries on first use; the SIMD build above has run it.
    local sys lib objects=() s
    sys="$(em-config CACHE)/sysroot"
    lib="$sys/lib/wasm32-emscripten"
    rm -rf "build/$name.relaxed" && mkdir -p "build/$name.relaxed"
    for s in "${sources[@]}"; do
      objects+=("build/$name.relaxed/$(basename "${s%.c}").o")
      clang-19 --target=wasm32-unknown-emscripten --sysroot="$sys" "${CFLAGS[@]}" "${defs[@]}" -msimd128 -mrelaxed-simd -mbulk-memory \
        -c "$s" -o "${objects[-1]}"
    done
    wasm-ld-19 -o "build/$name.relaxed.wasm" "${objects[@]}" -L"$lib" "$lib/crt1_reactor.o" \
      -lstandalonewasm-memgrow -lstubs -lnoexit -lc -lemmalloc -lcompiler_rt \
      --import-undefined --strip-all "${exports[@]/#_/--export=}" --export=_initialize \
      -z stack-size=$STACK --initial-memory=$INITIAL_MEMORY --max-memory=$MAX_MEMORY --entry=_initialize
  fi
  if stale "build/$name.wasm"; then
    emcc "${CFLAGS[@]}" "${defs[@]}" "${em[@]}" "${sources[@]}" -o "build/$name.wasm"
  fi
}
# the two engines side by side (a core each); a failed build fails the wait
engine attention attention training & full=$!
engine attention-only attention & only=$!
wait $full
wait $only
# The text <attention-tiny-gpt> learns from, made from the article every
# build (cheap; file times after a git checkout or merge say nothing).
node scripts/article-text.mjs
if [ -f scripts/bundle.mjs ]; then node scripts/bundle.mjs; fi
# dist/'s TypeScript declarations of the figures, from the registry and their props.
node scripts/figure-types.mjs
# dist/snapshots/: every figure's picture, computed by the snapshot command's code.
node scripts/snapshots.mjs
# The figures the Hugo shortcode and the Jekyll include accept, from the registry, with their pictures.
node scripts/blog-data.mjs
# The article as served (web/index.html): its source with the formulas as MathML and the figures' pictures.
node scripts/article.mjs
ls -l build/*.wasm | awk '{print "build.sh: " $NF " " $5 " bytes"}'
