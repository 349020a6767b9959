#!/usr/bin/env bash
# Tags a release: `scripts/release.sh 1.2.3 [--push]`.
# Creates the annotated tag v1.2.3 and moves the major tag v1 to it, so users pinned to @v1 get the release.
# Refuses unless the tree is clean, package.json has that version, CHANGELOG.md has a section for it, and dist/
# is the build of src/. Without --push it only tags locally and prints the push command.
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:-}"
push="${2:-}"
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "usage: scripts/release.sh X.Y.Z [--push]" >&2
  exit 2
fi
major="v${version%%.*}"
tag="v$version"

fail() { echo "release: $*" >&2; exit 1; }

[ -z "$(git status --porcelain)" ] || fail "the working tree has uncommitted changes"
[ "$(node -p 'require("./package.json").version')" = "$version" ] || fail "package.json's version is not $version"
grep -q "^## $version\b" CHANGELOG.md || fail "CHANGELOG.md has no '## $version' section"
! git rev-parse -q --verify "refs/tags/$tag" >/dev/null || fail "$tag exists already"

if [ "${RELEASE_SKIP_BUNDLE:-}" != 1 ]; then
  npm run -s bundle >/dev/null
  [ -z "$(git status --porcelain -- dist)" ] || fail "dist/ is not the build of src/: run 'npm run bundle' and commit it"
fi

git tag -a "$tag" -m "$tag"
git tag -fa "$major" -m "$major (now $tag)" "$tag^{commit}"
echo "Tagged $tag and moved $major to it."
if [ "$push" = "--push" ]; then
  git push origin "$tag"
  git push --force origin "$major"
else
  echo "Push with: git push origin $tag && git push --force origin $major"
fi
