#!/usr/bin/env bash
# has_files.sh DIR FILE... : print "missing FILE" for each FILE not under DIR,
# then "checked N files" (N = how many exist). Used with check.sh.
dir=$1
shift
n=0
for f in "$@"; do
	if [ -f "$dir/$f" ]; then n=$((n + 1)); else echo "missing $f"; fi
done
echo "checked $n files"
