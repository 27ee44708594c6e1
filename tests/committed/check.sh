#!/usr/bin/env bash
# Behaviour unchanged, checked on what the repository holds: every committed league folder
# replays game for game (`evomcts replay`), and every committed evolution and validation run,
# resumed in a scratch copy, writes the same bytes as the committed files. Run before and
# after a change that should not change results; it plays every recorded league game again
# (about an hour of CPU on the replication's 5,250 games).
# Usage: tests/committed/check.sh [EVOMCTS_BINARY] [--skip-replay]
set -u
cd "$(dirname "$0")/../.."
evomcts=${1:-target/release/evomcts}
skip_replay=${2:-}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0

same_after_resume() { # what, folder, spec (empty: the folder's own), command...
    local what=$1 folder=$2 spec=$3
    shift 3
    local copy="$scratch/$(echo "$folder" | tr / _)"
    cp -r "$folder" "$copy"
    if ! "$@" "${spec:-$copy/spec.ron}" --out "$copy" --resume --quiet >"$scratch/out" 2>&1; then
        echo "$what $folder: resume FAILED: $(tail -3 "$scratch/out")"
        failed=1
    elif ! diff -r -x .evomcts.lock "$folder" "$copy" >"$scratch/diff"; then
        echo "$what $folder: DIFFERENT bytes after resume:"
        head -20 "$scratch/diff"
        failed=1
    else
        echo "$what $folder: same bytes"
    fi
    rm -rf "$copy"
}

# An evolution resumes from the spec file it was started with where that is committed
# (runs/evolve/NAME.ron): a run begun before specs carried their files stores file paths.
for stored in $(git ls-files 'populations/*/spec.ron' 'populations/*/*/spec.ron'); do
    folder=$(dirname "$stored")
    original="runs/evolve/$(basename "$folder").ron"
    [ -e "$original" ] || original=
    same_after_resume evolve "$folder" "$original" "$evomcts" evolve
done
for spec in $(git ls-files 'runs/validate/*spec.ron' | grep '/spec.ron$'); do
    folder=$(dirname "$spec")
    if [ -e "$folder/sweep.csv" ]; then kind=sweep
    elif grep -q "^ *bandit\|Bandit" "$spec" && [ ! -e "$folder/games.csv" ]; then kind=bandit
    else kind=game; fi
    same_after_resume "validate $kind" "$folder" "" "$evomcts" validate "$kind"
done
if [ "$skip_replay" != --skip-replay ]; then
    for folder in $(git ls-files '*games.jsonl' | xargs -n1 dirname | sort -u); do
        if out=$("$evomcts" replay "$folder" 2>&1); then
            echo "replay $folder: $(echo "$out" | tail -1)"
        else
            echo "replay $folder FAILED: $(echo "$out" | tail -3)"
            failed=1
        fi
    done
fi
if [ $failed -ne 0 ]; then
    echo "committed runs: some did not reproduce"
    exit 1
fi
echo "committed runs: all reproduce"
