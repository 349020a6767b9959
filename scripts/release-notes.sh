#!/usr/bin/env bash
# Prints the notes of a release, the body of CHANGELOG.md's `## X.Y.Z` section: `scripts/release-notes.sh 1.2.3`.
# Fails when there is no such section or it is empty. scripts/release.sh checks them before tagging, and the release
# workflow makes them the GitHub release's notes.
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:-}"
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "usage: scripts/release-notes.sh X.Y.Z" >&2
  exit 2
fi

# The lines after `## X.Y.Z` (alone, or followed by a space and a date) up to the next `## ` heading, without the
# blank lines around them.
notes="$(awk -v heading="## $version" '
  inside && /^## / { exit }
  inside { print }
  $0 == heading || index($0, heading " ") == 1 { inside = 1 }
' CHANGELOG.md | sed '/./,$!d')"

if [ -z "$notes" ]; then
  if grep -qE "^## ${version//./\\.}( |$)" CHANGELOG.md; then
    echo "release: CHANGELOG.md's '## $version' section is empty" >&2
  else
    echo "release: CHANGELOG.md has no '## $version' section" >&2
  fi
  exit 1
fi
printf '%s\n' "$notes"
