# Sourced by the benchmark scripts that compare this checkout with a baseline
# commit (scripts/bench-hostile.sh, scripts/bench-index.sh).
#
#   baseline_tool COMMIT PRODUCT NAME [TOOL_FOLDER]
#
# Checks COMMIT out in a temporary git worktree outside the repository (kept
# between runs, never committed), builds the Benchmarks/ product PRODUCT
# there in release mode and prints its path. With TOOL_FOLDER (a folder of
# Benchmarks/Tools), this checkout's tool and Benchmarks/Package.swift are
# copied in first, so a tool newer than the baseline measures the baseline's
# library. Prints nothing, and says why on standard error as NAME, when the
# baseline cannot be checked out or built.
baseline_tool() {
    local commit="$1" product="$2" name="$3" tool_folder="${4:-}"
    local swift="${SWIFT:-swift}"
    local worktree="${TMPDIR:-/tmp}/parallaxkit-baseline-$product-$commit"
    if [[ ! -d "$worktree" ]] && ! git worktree add --detach "$worktree" "$commit" >/dev/null 2>&1; then
        echo "$name: cannot check out $commit; reporting this checkout only" >&2
        return 0
    fi
    if [[ -n "$tool_folder" ]]; then
        mkdir -p "$worktree/Benchmarks/Tools"
        cp -r "Benchmarks/Tools/$tool_folder" "$worktree/Benchmarks/Tools/"
        cp Benchmarks/Package.swift "$worktree/Benchmarks/Package.swift"
    fi
    if "$swift" build -c release --package-path "$worktree/Benchmarks" --product "$product" >/dev/null 2>&1; then
        echo "$("$swift" build -c release --package-path "$worktree/Benchmarks" --show-bin-path)/$product"
    else
        echo "$name: the baseline $commit does not build; reporting this checkout only" >&2
    fi
}

# Builds PRODUCT of this checkout's Benchmarks/ in release mode and prints its
# path. A nested package does not notice the library's files moving; a stale
# build plan is dropped and the build tried once more.
current_tool() {
    local product="$1" swift="${SWIFT:-swift}"
    "$swift" build -c release --package-path Benchmarks --product "$product" >&2 \
        || { rm -f Benchmarks/.build/*.yaml; "$swift" build -c release --package-path Benchmarks --product "$product" >&2; }
    echo "$("$swift" build -c release --package-path Benchmarks --show-bin-path)/$product"
}
