#!/bin/sh
# scripts/igt-run against a stand-in IGT tree: its table counts what each
# program's output says, a --run-subtest filter's subtests are what it
# selects (IGT's uwildmat: patterns, "!" excludes, the last match wins),
# and a long list of subtests still gets a log of its own.
test_description='scripts/igt-run: table, subtest filters, log names'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"
if ! command -v bash >/dev/null 2>&1; then
	echo "1..0 # SKIP scripts/igt-run needs bash"
	exit 0
fi
IGT_RUN="$GEMKIT_SRC_DIR/scripts/igt-run"

# Five subtests and IGT's result lines: beta fails, gamma-* skip; the
# filter matched as IGT does.  It also says which device it ran on, and
# with FAKE_DIE set it is killed after its first subtest.
test_expect_success 'setup: a stand-in IGT tree' '
	mkdir -p igt/build/tests &&
	cat >igt/build/tests/gem_fake <<-\EOF &&
	#!/bin/sh
	set -f
	all="alpha beta gamma-one gamma-two delta"
	if [ "$1" = --list-subtests ]; then
		for s in $all; do echo "$s"; done
		exit 0
	fi
	filter="*"
	[ "$1" = --run-subtest ] && filter=$2
	test -e /dev/dri/card0 && echo "device: $GEM_DEVICE"
	failed=0
	for s in $all; do
		hit=0
		IFS=,
		for p in $filter; do
			case $p in
			!*) case $s in ${p#!}) hit=0 ;; esac ;;
			*) case $s in $p) hit=1 ;; esac ;;
			esac
		done
		unset IFS
		[ $hit = 1 ] || continue
		echo "Starting subtest: $s"
		case $s in
		beta) echo "Subtest $s: FAIL (0.000s)"; failed=1 ;;
		gamma-*) echo "Subtest $s: SKIP (0.000s)" ;;
		*) echo "Subtest $s: SUCCESS (0.000s)" ;;
		esac
		[ -n "$FAKE_DIE" ] && kill -9 $$
	done
	exit $failed
	EOF
	printf "#!/bin/sh\nexit 77\n" >igt/build/tests/gem_simple &&
	chmod +x igt/build/tests/gem_fake igt/build/tests/gem_simple
'

row () {
	awk -v t="$1" '$1 == t { $1 = ""; sub(/^ /, ""); print }' "$2"
}

test_expect_success 'whole programs: counts, exit statuses, exit 1 on a failure' '
	test_expect_code 1 "$IGT_RUN" --gemctl "$GEMCTL" -o out "$TRASH/igt" \
		gem_fake gem_simple >table 2>err &&
	echo "2 1 2 0 0 1" >expect && row gem_fake table >actual && test_cmp expect actual &&
	echo "0 0 1 0 0 77" >expect && row gem_simple table >actual && test_cmp expect actual &&
	echo "2 1 3 0 0" >expect && row TOTAL table >actual && test_cmp expect actual &&
	test_cmp table out/summary.txt &&
	grep "^device: .*/card0$" out/gem_fake.log &&
	grep "logs and table in out" err
'

test_expect_success 'a filter counts the subtests it selects' '
	"$IGT_RUN" --gemctl "$GEMCTL" -o out2 "$TRASH/igt" "gem_fake:gamma-*,delta" \
		"gem_fake:*,!beta,!gamma-two" >table &&
	echo "1 0 2 0 0 0" >expect && row "gem_fake:gamma-*,delta" table >actual &&
	test_cmp expect actual &&
	echo "2 0 1 0 0 0" >expect && row "gem_fake:*,!beta,!gamma-two" table >actual &&
	test_cmp expect actual &&
	test -f "out2/gem_fake_gamma-*,delta.log"
'

test_expect_success 'what a killed program left of its filter is not run' '
	FAKE_DIE=1 test_expect_code 1 "$IGT_RUN" --gemctl "$GEMCTL" -o out4 \
		"$TRASH/igt" "gem_fake:alpha,gamma-*,delta" >table4 2>err4 &&
	row "gem_fake:alpha,gamma-*,delta" table4 >actual &&
	echo "1 0 0 0 3" >expect && cut -d" " -f1-5 actual >actual5 &&
	test_cmp expect actual5
'

# A name longer than a file name may be: 30 subtests made IGT runs fail
# with "File name too long" and count nothing.
test_expect_success 'a long list of subtests gets a log named by its checksum' '
	list=alpha &&
	for i in $(seq 1 30); do list="$list,no-such-subtest-$i"; done &&
	"$IGT_RUN" --gemctl "$GEMCTL" -o out3 "$TRASH/igt" "gem_fake:$list" >table 2>err &&
	echo "1 0 0 0 0 0" >expect && row "gem_fake:$list" table >actual &&
	test_cmp expect actual &&
	sum=$(printf "%s" "$list" | cksum | cut -d" " -f1) &&
	grep "^Subtest alpha: SUCCESS" "out3/gem_fake_subtests-$sum.log" &&
	! grep "too long" err
'

test_done
