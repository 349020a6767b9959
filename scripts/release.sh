#!/usr/bin/env bash
# Starts a release: `scripts/release.sh X.Y.Z [--dry-run | --push]`.
# Refuses unless the working tree is clean, package.json has version X.Y.Z, CHANGELOG.md has a `## X.Y.Z` section
# (the release's notes), the tag vX.Y.Z is not taken here or on origin, and dist/ is the build of src/ (it runs
# `npm run bundle`). Then it creates the annotated tag vX.Y.Z on HEAD, and with --push pushes it to origin. The pushed
# tag starts .github/workflows/release.yml, which checks again that dist/ is the build of the tag, runs the tests,
# attests the build provenance of dist/, creates the GitHub release with those notes and moves the major tag (v1) to
# it: the major tag is the workflow's to move, never this script's.
# Without --push the tag stays local and the command that pushes it is printed.
# --dry-run makes every check and prints what it would do; it creates and pushes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/release.sh X.Y.Z [--dry-run | --push]" >&2
  exit 2
}
version="${1:-}"
mode="${2:-tag}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || usage
case "$mode" in tag | --dry-run | --push) ;; *) usage ;; esac
[ $# -le 2 ] || usage
tag="v$version"
major="v${version%%.*}"

fail() {
  echo "release: $*" >&2
  exit 1
}
ok() { echo "ok: $*"; }

[ -z "$(git status --porcelain)" ] || fail "the working tree has uncommitted changes"
ok "the working tree is clean"

[ "$(node -p 'require("./package.json").version')" = "$version" ] || fail "package.json's version is not $version"
ok "package.json's version is $version"

notes="$(scripts/release-notes.sh "$version")" || exit 1
ok "CHANGELOG.md has a '## $version' section"

! git rev-parse -q --verify "refs/tags/$tag" >/dev/null || fail "$tag exists already"
if git remote get-url origin >/dev/null 2>&1; then
  remote="$(git ls-remote --tags origin "refs/tags/$tag")" || fail "cannot reach origin to check that $tag is not taken there"
  [ -z "$remote" ] || fail "$tag exists already on origin"
  ok "$tag is not taken, here or on origin"
else
  ok "$tag is not taken (there is no origin)"
fi

npm run -s bundle >/dev/null
[ -z "$(git status --porcelain -- dist)" ] || fail "dist/ is not the build of src/: run 'npm run bundle' and commit it"
ok "dist/ is the build of src/"

commit="$(git rev-parse HEAD)"
what="$(git log -1 --format='%h %s' "$commit")"
workflow="the release workflow then checks the tag again, runs the tests, attests dist/, creates the GitHub release
$tag with the notes below, and moves $major to it if it is the newest $major release."

if [ "$mode" = --dry-run ]; then
  echo
  echo "Dry run: nothing was created or pushed. A release would:"
  echo "- create the annotated tag $tag on $what"
  echo "- push it with: git push origin $tag"
  echo "- and $workflow"
  echo
  echo "Notes of $tag:"
  printf '%s\n' "$notes"
  exit 0
fi

git tag -a "$tag" -m "$tag" "$commit"
echo "Tagged $tag on $what."
if [ "$mode" = --push ]; then
  git push origin "refs/tags/$tag"
  echo "Pushed $tag: $workflow"
else
  echo "Push it to start the release: git push origin $tag"
fi
