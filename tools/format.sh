#!/usr/bin/env bash
# format.sh [--check] [--root DIR] - format gpucoh's C sources with clang-format
# and the repository's .clang-format (make format), or, with --check, list the
# files that differ from it and exit 1 (cli/format, run by make test).
#
# The sources: every tracked *.c and *.h under src/, include/, tests/, bench/,
# fuzz/, examples/ and workloads/ (git ls-files; without git, the same folders
# searched). Formatting depends on clang-format's major version: the tree is
# kept formatted with the version in FORMAT_MAJOR (Debian 12's), and --check
# with another major version says so and exits 77 (ctest: skipped) rather than
# report another version's differences as the project's.
# SPDX-License-Identifier: BSD-3-Clause
set -u
FORMAT_MAJOR=14
check=0
root=$(cd "$(dirname "$0")/.." && pwd)
while [ $# -gt 0 ]; do
    case $1 in
    --check) check=1 ;;
    --root) root=$2; shift ;;
    -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "format.sh: unknown argument '$1' (--check, --root DIR)" >&2; exit 2 ;;
    esac
    shift
done
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
    echo "format.sh: $cf not found (make deps installs clang-format)" >&2
    exit 2
fi
major=$("$cf" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$check" = 1 ] && [ "$major" != "$FORMAT_MAJOR" ]; then
    echo "format.sh: clang-format $major is not the $FORMAT_MAJOR the tree is formatted with; not checked"
    exit 77
fi
cd "$root" || exit 2
dirs=(src include tests bench fuzz examples workloads)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files -- "${dirs[@]/%//*.c}" "${dirs[@]/%//*.h}")
else
    mapfile -t files < <(find "${dirs[@]}" -name '*.[ch]' 2>/dev/null | sort)
fi
[ ${#files[@]} -gt 0 ] || { echo "format.sh: no C sources under $root" >&2; exit 2; }
if [ "$check" = 0 ]; then
    "$cf" -i --style=file "${files[@]}"
    echo "format.sh: ${#files[@]} files formatted with clang-format $major"
    exit 0
fi
bad=()
for f in "${files[@]}"; do
    "$cf" --style=file --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
    echo "format.sh: ${#bad[@]} of ${#files[@]} files differ from .clang-format (run make format):"
    printf '  %s\n' "${bad[@]}"
    exit 1
fi
echo "format.sh: ${#files[@]} files formatted as .clang-format says"
