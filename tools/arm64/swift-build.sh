#!/usr/bin/env bash
# swift-build.sh -- `swift build` for aarch64 (arm64) with Debian 13's Swift 6.0.3, in the
# trixie build root (tools/arm64/build-root.sh): a Swift SDK bundle for
# aarch64-unknown-linux-gnu (the root as the sysroot, the arm64 swiftlang's modules and static
# standard library, lld to link) and pkg-config pointed at the arm64 .pc files.
#
#   tools/arm64/swift-build.sh [SWIFT BUILD ARGUMENTS...]
#
# The arguments go to `swift build` as they are, after `--swift-sdk`; give `--scratch-path`
# (a folder of its own under .build/, e.g. .build/arm64-release) so host and arm64 builds never
# share one. With `--show-bin-path` it prints the folder of the products.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
say() { echo "arm64-build: $*" >&2; }

ROOT=$("$HERE/build-root.sh" | tail -1)
SDKS=/opt/swift-sdks
SDK=glance-aarch64
BUNDLE=$ROOT$SDKS/$SDK.artifactbundle
TRIPLE=aarch64-unknown-linux-gnu
TARGET_LIB=/opt/target-swift/usr/libexec/swift/lib

# The bundle, written each time (a few small files; a change here reaches every build).
mkdir -p "$BUNDLE/$SDK"
cat >"$BUNDLE/info.json" <<EOF
{
  "schemaVersion": "1.0",
  "artifacts": {
    "$SDK": {
      "type": "swiftSDK",
      "version": "6.0.3",
      "variants": [
        { "path": "$SDK", "supportedTriples": ["x86_64-unknown-linux-gnu", "x86_64-pc-linux-gnu"] }
      ]
    }
  }
}
EOF
cat >"$BUNDLE/$SDK/swift-sdk.json" <<EOF
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "$TRIPLE": {
      "sdkRootPath": "/opt/arm64-sysroot",
      "swiftResourcesPath": "$TARGET_LIB/swift",
      "swiftStaticResourcesPath": "$TARGET_LIB/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
EOF
# lld from the toolchain links aarch64: no gcc cross toolchain is needed.
cat >"$BUNDLE/$SDK/toolset.json" <<'EOF'
{
  "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] }
}
EOF

PC=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig
# GLANCE_TEST_TARGETS (tools/arm64/test.sh): the package with only those test targets (Package.swift).
ONLY=()
[ -z "${GLANCE_TEST_TARGETS:-}" ] || ONLY=(--env "GLANCE_TEST_TARGETS=$GLANCE_TEST_TARGETS")
exec "$HERE/in-root.sh" "${ONLY[@]}" --env PKG_CONFIG_LIBDIR=$PC --env PKG_CONFIG_PATH=$PC --env PKG_CONFIG_SYSROOT_DIR=/ -- \
	sh -c 'cd "$0" && exec swift build --swift-sdks-path '"$SDKS"' --swift-sdk '"$SDK"' "$@"' "$REPO" "$@"
