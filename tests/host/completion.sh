#!/usr/bin/env bash
# The bash completion (packaging/bash-completion/reclaimscope) as bash
# runs it: commands, each command's options (only those it takes), top's
# --sort columns, report's metrics for --metric, recordings for report.
# usage: completion.sh COMPLETION_FILE BINARY
set -uo pipefail
file=$1 bin=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
passed=0 failed=0
# shellcheck disable=SC1091
. /usr/share/bash-completion/bash_completion
# shellcheck disable=SC1090
. "$file"
PATH="$(dirname "$bin"):$PATH"
complete_line() { # WORDS...: COMPREPLY for the last word
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_reclaimscope reclaimscope "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}"
}
expect() { # WHAT WANT WORDS...: WANT among the completions
	local what=$1 want=$2
	shift 2
	local got
	# Captured first: grep -q stops reading at its match, and under
	# pipefail the writer's SIGPIPE would fail a line that matched.
	got=$(complete_line "$@")
	if grep -qx -- "$want" <<<"$got"; then
		echo "  ok    $what"
		passed=$((passed + 1))
	else
		echo "  FAIL  $what (got: $(tr '\n' ' ' <<<"$got"))"
		failed=$((failed + 1))
	fi
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
touch "$work/run.ndjson" "$work/notes.txt"
cd "$work" || exit 1
expect "commands" top reclaimscope to
expect "commands: diff" diff reclaimscope di
expect "record's options" --outcome reclaimscope record --out
expect "diff's options" --markdown reclaimscope diff --mark
expect "top --sort columns" eff% reclaimscope top --sort e
expect "diff --metric names" efficiency reclaimscope diff --metric effi
expect "report takes recordings" run.ndjson reclaimscope report r
# Every option offered for a command is one the command takes: each goes to
# the command with a value and then --help, so that nothing runs (argp
# handles options in order: an unknown one is refused before --help, a
# known one that takes no value says so instead).  And every option in
# the option column of its --help is offered.
for cmd in probe record top daemon report diff; do
	offered=$(complete_line reclaimscope "$cmd" --)
	refused=() missing=()
	for opt in $offered; do
		err=$(timeout 10 "$bin" "$cmd" "$opt=1" --help 2>&1 >/dev/null </dev/null)
		grep -q "unrecognized option" <<<"$err" && refused+=("$opt")
	done
	for opt in $("$bin" "$cmd" --help | grep -oE -- '^(  -[^ ], |      )--[a-z][a-z0-9-]*' |
		grep -oE -- '--[a-z0-9-]+'); do
		grep -qx -- "$opt" <<<"$offered" || missing+=("$opt")
	done
	if [ -n "$offered" ] && [ ${#refused[@]} -eq 0 ] && [ ${#missing[@]} -eq 0 ]; then
		echo "  ok    $cmd: offers each of its options and no other ($(wc -w <<<"$offered"))"
		passed=$((passed + 1))
	else
		echo "  FAIL  $cmd: offers options it refuses: ${refused[*]:-none}; leaves out: ${missing[*]:-none}"
		failed=$((failed + 1))
	fi
done
if grep -qx notes.txt <<<"$(complete_line reclaimscope report n)"; then
	echo "  FAIL  report offers only recordings (and folders)"
	failed=$((failed + 1))
else
	echo "  ok    report offers only recordings (and folders)"
	passed=$((passed + 1))
fi
echo "completion: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
