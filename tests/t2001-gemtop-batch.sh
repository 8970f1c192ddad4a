#!/bin/sh
# gemtop's command line and batch mode (-b): text, JSON Lines and CSV against
# a private gemd holding a known workload, through the FUSE mount, the
# socket and a saved copy of the tree.
test_description='gemtop options and batch output'
. "$(dirname "$0")/test-lib.sh"

. "$GEMKIT_SRC_DIR/tests/gemtop-test-lib.sh"

test_expect_success '--help lists every option and exits 0' '
	"$GEMTOP" --help >out 2>err &&
	test_must_be_empty err &&
	for opt in -D --device --debugfs -d --delay -b --batch -n --iterations \
		--format -o --output -F --filter -v --view -C --no-color -U --ascii \
		-h --help -V --version; do
		grep -e "$opt\\b" out || { echo "missing: $opt"; return 1; }
	done
'

test_expect_success '--version prints the package version' '
	"$GEMTOP" --version >out &&
	grep -E "^gemtop \\(gemkit\\) [0-9]+\\.[0-9]+" out
'

test_expect_success 'the completions read the option table from --complete' '
	"$GEMTOP" --complete >table &&
	for opt in -D --device --debugfs -d --delay -b --batch -n --iterations \
		--format -o --output -F --filter -v --view -C --no-color -U --ascii \
		-h --help -V --version; do
		grep -e " $opt\b" -e "^$opt\b" table || { echo "missing: $opt"; return 1; }
	done &&
	if command -v bash >/dev/null; then
		bash -c ". \"$GEMKIT_SRC_DIR/completions/gemtop\" &&
			COMP_WORDS=(\"$GEMTOP\" --form) COMP_CWORD=1 && _gemtop &&
			echo \"\${COMPREPLY[*]}\" &&
			COMP_WORDS=(\"$GEMTOP\" --format \"\") COMP_CWORD=2 && _gemtop &&
			echo \"\${COMPREPLY[*]}\"" >out &&
		printf "%s\n" "--format" "text json csv" >expect &&
		test_cmp expect out
	fi
'

test_expect_success 'the views come from the view table: --help, --complete, -v' '
	"$GEMTOP" --help >out &&
	grep -E "^  -v, --view N +start in view N \(1 objects, 2 GTT map,\$" out &&
	grep -E "^ +3 clients, 4 rings, 5 events\)\$" out &&
	grep -E "^Keys: .* Tab/1-5 views," out &&
	"$GEMTOP" --complete >table &&
	tail -n 1 table >last &&
	echo "=view 1 2 3 4 5" >expect &&
	test_cmp expect last &&
	if command -v bash >/dev/null; then
		bash -c ". \"$GEMKIT_SRC_DIR/completions/gemtop\" &&
			COMP_WORDS=(\"$GEMTOP\" --view \"\") COMP_CWORD=2 && _gemtop &&
			echo \"\${COMPREPLY[*]}\"" >out &&
		echo "1 2 3 4 5" >expect &&
		test_cmp expect out
	fi &&
	test_expect_code 2 "$GEMTOP" -b -v 6 2>err &&
	grep "expected 1-5" err
'

test_expect_success 'usage errors exit 2 and name the value' '
	test_expect_code 2 "$GEMTOP" -b -d 0 2>err && grep "'\''0'\''" err &&
	test_expect_code 2 "$GEMTOP" -b -d abc 2>err && grep "a duration from 50ms to 1 day" err &&
	test_expect_code 2 "$GEMTOP" -b --format xml 2>err && grep "'\''xml'\''" err &&
	test_expect_code 2 "$GEMTOP" -b -n -1 2>err && grep "'\''-1'\''" err &&
	test_expect_code 2 "$GEMTOP" -b -F "size>lots" 2>err && grep "bad size" err &&
	test_expect_code 2 "$GEMTOP" -b -F "colour:red" 2>err && grep "unknown filter term '\''colour:red'\''" err &&
	test_expect_code 2 "$GEMTOP" --view 9 2>err && grep "'\''9'\''" err &&
	test_expect_code 2 "$GEMTOP" extra 2>err && grep "unexpected argument" err &&
	test_expect_code 2 "$GEMTOP" -D x --debugfs y 2>err && grep "two sources" err
'

test_expect_success 'without a terminal and without -b it says to use -b' '
	test_expect_code 2 "$GEMTOP" -D "$GEMD_SOCK" </dev/null >out 2>err &&
	grep "use -b" err
'

test_expect_success 'a missing device is a clear message and exit 3' '
	test_expect_code 3 "$GEMTOP" -D "$TRASH/nothing/card0" -b -n 1 >out 2>err &&
	grep "^gemtop: no gemd at .*nothing/card0 (is gemd running?" err &&
	test_must_be_empty out
'

test_expect_success 'setup: gemd with debugfs and the known workload' '
	start_gemd_dfs &&
	start_workload
'

test_expect_success 'text: the header figures of the workload' '
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 1 >out 2>err &&
	test_must_be_empty err &&
	grep "^Aperture: 458752 / 16777216 used, largest hole [0-9]*, pinned 262144, fenced 0\$" out &&
	grep "^Lists: unbound 5/327680 inactive 3/196608 active 0/0 flushing 0/0 pinned 3/262144\$" out &&
	grep "^Seqno: emitted 0 completed 0 lag 0 oldest 0 ns, hangs 0\$" out
'

test_expect_success 'text: objects sorted by size, the ring first, owners named' '
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 1 >out &&
	sed -n "/^ *ID /,\$p" out >table &&
	test $(grep -c "gemtop-workload" table) = 10 &&
	sed -n 2p table | grep -E "^ +1 +131072 pinned " &&
	sed -n 3p table | grep -E "^ +2 +65536 inactive .* $WORKLOAD_PID/gemtop-workload +1 " &&
	grep -E "^ +5 +65536 pinned .* P\\.\\.\\.\\.\\. " table &&
	grep -E "^ +7 +65536 unbound +c/C +- " table
'

test_expect_success 'text on a terminal: sizes and ages for people, consistently' '
	if command -v script >/dev/null 2>&1; then
		script -qec "\"$GEMTOP\" -D \"$GEMD_SOCK\" -b -n 1" /dev/null | tr -d "\r" >tty.out &&
		grep "^Aperture: 448K / 16M used, largest hole [0-9.]*[KMG], pinned 256K, fenced 0B\$" tty.out &&
		grep "^Lists: unbound 5/320K inactive 3/192K active 0/0B flushing 0/0B pinned 3/256K\$" tty.out &&
		grep "^Seqno: emitted 0 completed 0 lag 0 oldest -, hangs 0\$" tty.out &&
		grep -E "^ +1 +128K pinned " tty.out &&
		script -qec "\"$GEMTOP\" -D \"$GEMD_SOCK\" -b -n 1 --bytes" /dev/null | tr -d "\r" >tty-raw.out &&
		grep "^Aperture: 458752 / 16777216 used" tty-raw.out
	fi
'

test_expect_success 'text: rates appear from the second sample on' '
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 3 -d 0.1 >out &&
	test $(grep -c "^gemtop - " out) = 3 &&
	test $(grep -c "^Rates/s: " out) = 2
'

test_expect_with PYTHON 'json: JSON Lines, valid, numbers as numbers, rates from sample 2' '
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 4 -d 0.1 --format json >out.json &&
	test $(wc -l <out.json) = 4 &&
	python3 -c "
import json, sys
n = 0
for line in open(\"out.json\"):
    o = json.loads(line)
    n += 1
    assert o[\"schema_version\"] == 1, o
    assert isinstance(o[\"timestamp_ns\"], int) and o[\"timestamp_ns\"] > 0
    assert o[\"interval_ns\"] == 100000000
    assert o[\"sample\"] == n
    assert (\"rates\" in o) == (n > 1), n
    assert o[\"aperture\"] == dict(total=16777216, used=458752, free=16318464,
        largest_hole=o[\"aperture\"][\"largest_hole\"], holes=o[\"aperture\"][\"holes\"],
        pinned=262144, fenced=0, evictable=196608), o[\"aperture\"]
    assert o[\"lists\"][\"unbound\"] == dict(objects=5, bytes=327680)
    assert o[\"lists\"][\"pinned\"] == dict(objects=3, bytes=262144)
    assert o[\"ring\"][\"seqno_lag\"] == 0
    assert o[\"hangs\"] == 0
    assert o[\"objects_total\"] == 11 and len(o[\"objects\"]) == 11
    assert o[\"objects\"][0][\"id\"] == 1 and o[\"objects\"][0][\"size\"] == 131072
    assert [c[\"comm\"] for c in o[\"clients\"]] == [\"gemtop-workload\"]
    assert o[\"clients\"][0][\"handles\"] == 10 and o[\"clients\"][0][\"bytes\"] == 655360
    if n > 1:
        assert all(isinstance(v, float) for v in o[\"rates\"].values())
        assert isinstance(o[\"cpu_pct\"], float)
assert n == 4
"
'

test_expect_with PYTHON 'json: -F filters the objects the same way as the view' '
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 1 --format json \
		-F "client:gemtop-workload list:unbound size>32K" >out.json &&
	python3 -c "
import json
o = json.loads(open(\"out.json\").read())
assert o[\"objects_matched\"] == 5, o[\"objects_matched\"]
assert sorted(x[\"id\"] for x in o[\"objects\"]) == [7, 8, 9, 10, 11]
"
'

test_expect_success 'csv: the header once, a row per sample, rates empty at first' '
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 3 -d 0.1 --format csv -o out.csv >stdout &&
	test_must_be_empty stdout &&
	test $(wc -l <out.csv) = 4 &&
	test $(grep -c "^timestamp_ns," out.csv) = 1 &&
	head -1 out.csv | grep ",unbound_objects,unbound_bytes,.*,execbuffers_per_s," &&
	fields=$(head -1 out.csv | tr , "\n" | wc -l) &&
	for i in 2 3 4; do
		test $(sed -n ${i}p out.csv | tr , "\n" | wc -l) = $fields || return 1
	done &&
	sed -n 2p out.csv | grep ",16777216,458752,[0-9]*,262144,0,5,327680,3,196608,0,0,0,0,3,262144,0,0,0,0,0,,,,,,,,\$" &&
	sed -n 3p out.csv | grep ",0\\.000,0\\.000,0\\.000,0\\.000,0\\.000,0\\.000,0\\.000,[0-9.]*\$"
'

test_expect_success 'the same figures with -D and with GEM_DEVICE' '
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 1 --format csv >via-opt &&
	GEM_DEVICE="$GEMD_SOCK" "$GEMTOP" -b -n 1 --format csv >via-env &&
	cut -d, -f4- via-opt >figures.first && cut -d, -f4- via-env >b &&
	test_cmp figures.first b
'

test_expect_with FUSE '--debugfs reads a saved copy of the tree' '
	mkdir -p saved/dri/0 &&
	for f in name gemkit_counters gemkit_ring gemkit_gtt gemkit_objects \
		gemkit_clients gemkit_events i915_gem_objects; do
		cat "$DFS/dri/0/$f" >saved/dri/0/$f || return 1
	done &&
	"$GEMTOP" --debugfs saved -b -n 1 >out 2>err &&
	test_must_be_empty err &&
	grep "^gemtop - .*saved/dri/0 - sample 1\$" out &&
	grep "^Lists: unbound 5/327680 inactive 3/196608 active 0/0 flushing 0/0 pinned 3/262144\$" out
'

test_expect_with FUSE 'a tree with only the era files: the lists, bound objects, the ring' '
	mkdir -p era3/dri/0 &&
	for f in name i915_gem_objects i915_gem_active i915_gem_flushing \
		i915_gem_inactive i915_gem_pinned i915_gem_seqno \
		i915_ringbuffer_info i915_gem_request; do
		cat "$DFS/dri/0/$f" >era3/dri/0/$f || return 1
	done &&
	"$GEMTOP" --debugfs era3 -b -n 1 >out 2>err &&
	test_must_be_empty err &&
	grep "^Missing: gemkit_counters gemkit_ring gemkit_gtt gemkit_objects gemkit_clients gemkit_events\$" out &&
	grep "^Lists: unbound 5/327680 inactive 3/196608 active 0/0 flushing 0/0 pinned 3/262144\$" out &&
	grep "^Seqno: emitted 0 completed 0 lag 0 oldest 0 ns, hangs n/a\$" out &&
	sed -n "/^ *ID /,\$p" out >table &&
	test $(grep -c -E "^ +[0-9]+ " table) = 6 &&
	grep -E "^ +2 +65536 inactive +c/C +0x00020000 \.\.\.\.\.\. +0 +0 +- +1 +0 *\$" table &&
	grep -E "^ +5 +65536 pinned +c/C +0x00050000 P\.\.\.\.\. " table
'

test_expect_with FUSE '--debugfs with only the era files still shows the lists' '
	mkdir -p era/dri/0 &&
	cat "$DFS/dri/0/i915_gem_objects" >era/dri/0/i915_gem_objects &&
	cat "$DFS/dri/0/name" >era/dri/0/name &&
	"$GEMTOP" --debugfs era -b -n 1 --format json >out.json 2>err &&
	grep "\"lists\":{\"unbound\":{\"objects\":5,\"bytes\":327680}" out.json &&
	grep "\"missing\":\"gemkit_counters gemkit_ring gemkit_gtt gemkit_objects gemkit_clients gemkit_events\"" out.json
'

test_expect_success 'batch rides out a gemd restart and says so' '
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 0 -d 0.1 --format csv >live.csv 2>live.err &
	top_pid=$! &&
	test_register_pid $top_pid &&
	test_wait_for 10 grep -q ",1," live.csv &&
	kill $WORKLOAD_PID && stop_gemd &&
	test_wait_for 10 grep -q "reconnecting" live.err &&
	start_gemd --aperture 16M --no-debugfs &&
	test_wait_for 10 grep -q "reconnected to" live.err &&
	kill -TERM $top_pid &&
	test_wait_for 10 test_pid_gone_ $top_pid &&
	test $(grep -c "^timestamp_ns," live.csv) = 1
'

test_expect_success 'through the socket (gemd without debugfs): the same figures' '
	start_workload &&
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 1 --format json >out.json &&
	grep "\"source\":\"socket " out.json &&
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 1 --format csv >via-socket &&
	cut -d, -f4- via-socket >b &&
	test_cmp figures.first b
'

test_expect_success 'teardown: gemd goes before the trash directory' '
	stop_gemd_if_running
'

test_done
