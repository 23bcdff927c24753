#!/usr/bin/env bash
# build.sh -- the libFuzzer targets, built with the Swift toolchain's own libFuzzer and
# AddressSanitizer (swiftc -sanitize=fuzzer,address): each module the targets use is compiled
# with coverage instrumentation, then each target is linked with libFuzzer's main.
#
#   tools/fuzz/build.sh            builds .build/fuzz/bin/{import-xml,import-csv,import-file,configuration,http-body,mqtt-payload,control-request}
#
# Rebuilds only when a source is newer than the binaries. SWIFTC names the compiler (default: the
# swiftc beside `swift` on the PATH).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=$ROOT/.build/fuzz
SWIFTC=${SWIFTC:-$(dirname "$(command -v swift)")/swiftc}
CLANG=$(dirname "$SWIFTC")/clang
[ -x "$SWIFTC" ] || { echo "fuzz: no swiftc (put the Swift toolchain on the PATH)" >&2; exit 2; }

TARGETS="import-xml import-csv import-file configuration http-body mqtt-payload control-request"
stamp=$OUT/bin/.built
if [ -f "$stamp" ] && [ -z "$(find "$ROOT/Sources" "$HERE/targets" "$HERE/build.sh" -newer "$stamp" -print -quit)" ]; then
	exit 0
fi
mkdir -p "$OUT/modules" "$OUT/objects" "$OUT/bin" "$OUT/include/CKernelShims"
echo "fuzz: building the targets (swiftc -sanitize=fuzzer,address) in .build/fuzz" >&2

# C module maps and include paths as SwiftPM gives them.
cat >"$OUT/include/CKernelShims/module.modulemap" <<MAP
module CKernelShims {
    umbrella "$ROOT/Sources/CKernelShims/include"
    export *
}
MAP
CFLAGS="-Xcc -I$(pkg-config --variable=includedir libxml-2.0)/libxml2"
INCLUDES="-I $OUT/modules -I $OUT/include/CKernelShims -I $ROOT/Sources/CSQLite -I $ROOT/Sources/CXML -I $ROOT/Sources/CArchive"
SWIFTFLAGS="-O -g -swift-version 6 -parse-as-library -package-name glance -enable-testing -sanitize=fuzzer,address $INCLUDES $CFLAGS"

# Every C file of the shims (as SwiftPM builds the target), as one object.
shims=()
for c in "$ROOT"/Sources/CKernelShims/*.c; do
	"$CLANG" -O1 -g -fsanitize=fuzzer-no-link,address -I "$ROOT/Sources/CKernelShims/include" \
		-c "$c" -o "$OUT/objects/shim-$(basename "$c" .c).o"
	shims+=("$OUT/objects/shim-$(basename "$c" .c).o")
done
ld -r -o "$OUT/objects/CKernelShims.o" "${shims[@]}"

# Store's bundled demo data, as SwiftPM embeds it (PackageResources).
python3 - "$ROOT/Sources/Store/Resources" "$OUT/objects/embedded_resources.swift" <<'PY'
import os, sys
folder, out = sys.argv[1], sys.argv[2]
with open(out, "w") as f:
    f.write("struct PackageResources {\n")
    for name in sorted(os.listdir(folder)):
        data = open(os.path.join(folder, name), "rb").read()
        f.write("static let %s: [UInt8] = [%s]\n" % (name.replace("-", "_").replace(".", "_"), ",".join(map(str, data))))
    f.write("}\n")
PY

module() { # NAME SOURCES...
	local name=$1
	shift
	"$SWIFTC" $SWIFTFLAGS -module-name "$name" -wmo -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" \
		-c -o "$OUT/objects/$name.o" "$@"
}
module Activity "$ROOT"/Sources/Activity/*.swift
module Platform "$ROOT"/Sources/Platform/*.swift
module JSON "$ROOT"/Sources/JSON/*.swift
module Store $(find "$ROOT/Sources/Store" -name '*.swift' | sort) "$OUT/objects/embedded_resources.swift"
module HealthExport "$ROOT"/Sources/HealthExport/*.swift
module Raster "$ROOT"/Sources/Raster/*.swift
module Faces "$ROOT"/Sources/Faces/*.swift
module Controls "$ROOT"/Sources/Controls/*.swift
module CLI "$ROOT"/Sources/CLI/*.swift
module Configuration "$ROOT"/Sources/Configuration/*.swift
module Feeds "$ROOT"/Sources/Feeds/*.swift

O=$OUT/objects
STORE="$O/Activity.o $O/Platform.o $O/CKernelShims.o $O/JSON.o $O/Store.o $O/HealthExport.o -lsqlite3 -lxml2 -larchive"
link() { # NAME OBJECTS... -- SOURCES...
	local name=$1
	shift
	"$SWIFTC" $SWIFTFLAGS -module-name "Fuzz_${name//-/_}" -o "$OUT/bin/$name" "$@"
}
link import-xml $STORE "$HERE/targets/FuzzStore.swift" "$HERE/targets/ImportXML.swift"
link import-csv $STORE "$HERE/targets/FuzzStore.swift" "$HERE/targets/ImportCSV.swift"
link import-file $STORE "$HERE/targets/FuzzStore.swift" "$HERE/targets/ImportFile.swift"
link configuration "$O/Raster.o" "$O/Activity.o" "$O/Controls.o" "$O/JSON.o" "$O/Faces.o" "$O/CLI.o" "$O/Configuration.o" \
	"$HERE/targets/Configuration.swift"
link http-body "$O/Activity.o" "$O/JSON.o" "$O/Feeds.o" "$HERE/targets/HTTPBody.swift"
link mqtt-payload "$O/Activity.o" "$O/JSON.o" "$O/Feeds.o" "$HERE/targets/MQTTPayload.swift"
link control-request "$O/Raster.o" "$O/Activity.o" "$O/Controls.o" "$HERE/targets/ControlRequest.swift"
touch "$stamp"
