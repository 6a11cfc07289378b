#!/usr/bin/env bash
# Builds the DocC documentation of every library module that builds on this
# platform, with warnings as errors (a broken symbol link, an undocumented
# parameter among documented ones), into .build-docs/archives.
#
#   scripts/docs.sh [Module ...]     (default: every library module)
#
# swift-docc-plugin is resolved only here (PARALLAXKIT_DOCS, see
# Package.swift), in a scratch folder of its own so the main build is not
# reconfigured. ParallaxUIKit and ParallaxSwiftUI are empty on Linux (their
# code is Apple-only), so their catalogs are built on Apple platforms only.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -gt 0 ]]; then
  modules=("$@")
elif [[ "$(uname)" == Darwin ]]; then
  modules=(ParallaxCore ParallaxLayout ParallaxImages ParallaxHosting ParallaxUIKit ParallaxSwiftUI)
else
  modules=(ParallaxCore ParallaxLayout ParallaxImages ParallaxHosting)
fi

out=.build-docs/archives
mkdir -p "$out"
failed=0
for module in "${modules[@]}"; do
  log="$(mktemp)"
  # The library's own build folder: the symbol graphs come from the modules `swift build` made, so the
  # library is not compiled again for its documentation (the plugin is only added to the package while
  # PARALLAXKIT_DOCS is set; a later plain build finds everything up to date).
  if PARALLAXKIT_DOCS=1 swift package --allow-writing-to-directory "$out" \
       generate-documentation --target "$module" --warnings-as-errors --output-path "$out/$module.doccarchive" \
       >"$log" 2>&1; then
    echo "docs: $module built without warnings ($out/$module.doccarchive)"
  else
    failed=1
    echo "docs: $module FAILED:"
    grep -E "warning|error" "$log" | grep -v "NSCocoaErrorDomain" | sed 's/^/  /' | head -60
  fi
  rm -f "$log"
done
exit "$failed"
