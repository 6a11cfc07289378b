#!/usr/bin/env bash
# Type-checks every Apple-only part of ParallaxKit for iOS on Linux: the
# UIKit and SwiftUI adapters, the iOS example gallery and the README's quick
# starts, in Swift 6 language mode, against a real iPhoneOS SDK; and every
# other library module of the package, which must build there too.
#
# The toolkit-independent modules are type-checked for iOS too (they must
# build there), then emitted as iOS module interfaces so the Apple code can
# import them. Nothing is linked or run.
#
# It runs against three SDKs: iOS 16.5 (the oldest SDK the package supports,
# so nothing newer slips in unguarded), iOS 17.0 (where the iOS 17 code
# paths, such as SwiftUI's `visualEffect`, are compiled too) and iOS 18.6
# (what `swift-tools-version:6.0` builds with: Xcode 16's SDKs, where the
# iOS 18 paths, such as UIKit's `UIUpdateLink` frame hook, are compiled).
# When iPhoneOS18.6.sdk is missing the script says loudly that the iOS 18
# paths were not checked. When a macOS
# 14.0 SDK is there as well, everything is also checked for macOS 13 (the
# package's macOS floor: the SwiftUI adapters and ImageIO decoder build
# there); without it the script says macOS was not checked.
#
# Needs:
#   uikit-typecheck   a script that drives the Linux Swift compiler against an
#                     iPhoneOS SDK. Set UIKIT_TYPECHECK to its path; by default
#                     the copy next to this project (../shared/tools/...) or
#                     one on PATH.
#   the SDKs          iPhoneOS16.5.sdk and iPhoneOS17.0.sdk in $APPLE_SDKS
#                     (default ~/.cache/parallaxkit/apple-sdks). When they are
#                     missing this script says how to get them and exits 2.
#                     iPhoneOS18.6.sdk there too, for the iOS 18 paths.
#
# Exit status: 0 every check passed, 1 a check failed, 2 setup missing.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

sdks_dir="${APPLE_SDKS:-$HOME/.cache/parallaxkit/apple-sdks}"
sdk_names=(${APPLE_SDK_NAMES:-iPhoneOS16.5.sdk iPhoneOS17.0.sdk})
ios18_sdk=iPhoneOS18.6.sdk
optional_sdk=macOS14.0.sdk
out_root="$root/.build-apple"

tool="${UIKIT_TYPECHECK:-}"
if [[ -z "$tool" ]]; then
  if [[ -x "$root/../shared/tools/uikit-typecheck/uikit-typecheck" ]]; then
    tool="$root/../shared/tools/uikit-typecheck/uikit-typecheck"
  else
    tool="$(command -v uikit-typecheck || true)"
  fi
fi

setup_help() {
  cat >&2 <<EOF
check-apple: $1

How to set up (once per machine):
  1. Get uikit-typecheck (it type-checks iOS Swift code with the Linux
     toolchain and a public iPhoneOS SDK) and point UIKIT_TYPECHECK at it,
     or put it on PATH.
  2. Get bare git copies of the public SDK repositories:
       theos/sdks          (has iPhoneOS16.5.sdk)
       itsnebulalol/sdks   (has iPhoneOS17.0.sdk)
       git clone --bare https://github.com/theos/sdks theos-sdks.git
       git clone --bare https://github.com/itsnebulalol/sdks nebula-sdks.git
  3. Extract and repair both SDKs into $sdks_dir:
       uikit-typecheck prepare-sdk theos-sdks.git iPhoneOS16.5.sdk $sdks_dir
       uikit-typecheck prepare-sdk nebula-sdks.git iPhoneOS17.0.sdk $sdks_dir
     Also iOS 18.6 (the iOS 18 paths: UIUpdateLink, onScrollGeometryChange):
       git clone --bare https://github.com/mrdrvt99/iOS-SDKss ios18-sdks.git
       uikit-typecheck prepare-sdk ios18-sdks.git iPhoneOS18.6.sdk $sdks_dir
     Optionally also macOS (the package's SwiftUI adapters build there):
       uikit-typecheck prepare-sdk nebula-sdks.git macOS14.0.sdk $sdks_dir
     (or set APPLE_SDKS to the folder that holds them).
  4. Run make check-apple again. Never commit an SDK.
EOF
  exit 2
}

[[ -n "$tool" && -x "$tool" ]] || setup_help "uikit-typecheck not found (set UIKIT_TYPECHECK)"
for sdk in "${sdk_names[@]}"; do
  [[ -d "$sdks_dir/$sdk" ]] || setup_help "no SDK at $sdks_dir/$sdk"
done
not_checked=""
if [[ -z "${APPLE_SDK_NAMES:-}" ]]; then
  if [[ -d "$sdks_dir/$ios18_sdk" ]]; then
    sdk_names+=("$ios18_sdk")
  else
    not_checked="the iOS 18 paths (UIUpdateLink) were NOT checked: no $ios18_sdk in $sdks_dir (mrdrvt99/iOS-SDKss has it)"
  fi
  if [[ -d "$sdks_dir/$optional_sdk" ]]; then
    sdk_names+=("$optional_sdk")
  else
    not_checked="${not_checked:+$not_checked; }macOS was NOT checked: no $optional_sdk in $sdks_dir (optional; itsnebulalol/sdks has it)"
  fi
fi

target_for() {  # the deployment target each SDK is checked for: the package's floors
  case "$1" in
    macOS*) echo "arm64-apple-macos13.0" ;;
    *) echo "arm64-apple-ios16.0" ;;
  esac
}

# Modules in dependency order: name, the folder of its sources, and its
# package (what `package` access is scoped to).
modules=(
  "ParallaxCore Sources/ParallaxCore ParallaxKit"
  "ParallaxLayout Sources/ParallaxLayout ParallaxKit"
  "ParallaxImages Sources/ParallaxImages ParallaxKit"
  "ParallaxHosting Sources/ParallaxHosting ParallaxKit"
  "ParallaxUIKit Sources/ParallaxUIKit ParallaxKit"
  "ParallaxSwiftUI Sources/ParallaxSwiftUI ParallaxKit"
  # The apps' package must build there too (their SDL code is compiled out); the two
  # command-line executables need swift-argument-parser and are not checked.
  "ParallaxDemo Apps/Sources/ParallaxDemo ParallaxApps"
  "ParallaxLibraryIndex Apps/Sources/ParallaxLibraryIndex ParallaxApps"
  "ParallaxGallery Apps/Sources/ParallaxGallery ParallaxApps"
)
# Code that imports the modules and is only type-checked.
clients=(
  "ParallaxExampleGallery Examples/iOSGallery/Sources"
  "QuickStart Examples/QuickStart"
)

failures=0
checks=0
sources_of() { find "$1" -name '*.swift' | sort; }

step() {  # step LABEL COMMAND...: runs one check, prints its verdict
  local label="$1"; shift
  local log; log="$(mktemp)"
  checks=$((checks + 1))
  if "$@" >"$log" 2>&1; then
    printf '  ok      %s\n' "$label"
  else
    failures=$((failures + 1))
    printf '  FAILED  %s\n' "$label"
    grep -E 'error:|warning:' "$log" | grep -v '^ *|' | sed 's/^/          /' | head -40
  fi
  rm -f "$log"
}

for sdk in "${sdk_names[@]}"; do
  sdk_path="$sdks_dir/$sdk"
  if [[ "$sdk" == macOS* ]]; then
    # clang infers the platform from the SDK folder's name and wants Apple's spelling (MacOSX).
    mkdir -p "$out_root"
    ln -sfn "$sdk_path" "$out_root/MacOSX${sdk#macOS}"
    sdk_path="$out_root/MacOSX${sdk#macOS}"
  fi
  mods="$out_root/$sdk/modules"
  rm -rf "$mods"; mkdir -p "$mods"
  target="$(target_for "$sdk")"
  common=(-s "$sdk_path" -t "$target" -v 6 -X -I -X "$mods" -X -warnings-as-errors)
  tool_env=()
  case "$sdk" in
    iPhoneOS1[0-7].*|macOS1[0-4].*) ;;
    *)
      # With an SDK of iOS 18 or later the Swift compiler stops searching the subfolders of its
      # resource folder for module maps, so the standard library's SwiftShims must be found in a
      # folder named after it: a resource folder of this check's own (under .build-apple) gets one.
      base="$out_root/typecheck-cache"
      mkdir -p "$base/uikit-typecheck/resource-dir"
      ln -sfn shims "$base/uikit-typecheck/resource-dir/SwiftShims"
      tool_env=(env XDG_CACHE_HOME="$base")
      ;;
  esac
  echo "$target, $sdk, Swift 6 language mode:"

  # The checker itself must be able to fail: a deliberate type error.
  checks=$((checks + 1))
  canary=scripts/apple-canary/DeliberateTypeError.swift
  [[ "$sdk" == macOS* ]] && canary=scripts/apple-canary/DeliberateTypeErrorMac.swift
  if "${tool_env[@]}" "$tool" "${common[@]}" "$canary" >/dev/null 2>&1; then
    failures=$((failures + 1))
    echo "  FAILED  canary: a deliberate type error type-checked clean, so this check proves nothing"
  else
    echo "  ok      canary: a deliberate type error is reported"
  fi

  for entry in "${modules[@]}"; do
    read -r name dir package <<<"$entry"
    mapfile -t files < <(sources_of "$dir")
    step "$name: type-check" "${tool_env[@]}" "$tool" "${common[@]}" -X -package-name -X "$package" \
      -X -parse-as-library -X -module-name -X "$name" "${files[@]}"
    # The interface later modules import. Function bodies were checked in
    # the step above; skipping them here avoids lowering typed throws against
    # an SDK standard library older than Swift 6, which crashes the compiler
    # (a limit of this Linux cross-check, not of the package: Xcode's
    # standard library has them).
    step "$name: emit module" "${tool_env[@]}" "$tool" "${common[@]}" -X -package-name -X "$package" \
      -X -Xfrontend -X -experimental-skip-all-function-bodies -m "$name" -o "$mods" "${files[@]}"
  done
  for entry in "${clients[@]}"; do
    read -r name dir <<<"$entry"
    mapfile -t files < <(sources_of "$dir")
    step "$name: type-check" "${tool_env[@]}" "$tool" "${common[@]}" -X -package-name -X "$name" \
      -X -parse-as-library -X -module-name -X "$name" "${files[@]}"
  done
done

echo
[[ -n "$not_checked" ]] && echo "check-apple: $not_checked"
if [[ $failures -eq 0 ]]; then
  echo "check-apple: all $checks checks passed"
  exit 0
fi
echo "check-apple: $failures of $checks checks FAILED"
exit 1
