#!/bin/sh
# gemctl bench: every workload under every strategy that applies runs a
# short smoke and gives a valid JSON document whose figures are positive
# and whose counts agree with the driver's counters.  No timing is
# asserted: the machine is shared.
test_description='gemctl bench: smoke runs, JSON, consistency with gemkit_counters, compare, micro'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is needed to check the JSON documents"
	exit 0
fi

ALL_STRATEGIES=alloc,reuse,suballoc,pwrite,cpu-map,gtt-map,unsync

# bench_check FILE WORKLOAD STRATEGIES: FILE holds one result per listed
# strategy for WORKLOAD, each with positive figures and gemkit's counts
# equal to the driver's.
bench_check () {
	python3 - "$@" <<-\EOF
	import json, sys
	path, workload, strategies = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
	d = json.load(open(path))
	assert d["schema_version"] == 1 and d["verb"] == "bench", d.get("verb")
	m = d["machine"]
	assert m["cores"] >= 1 and m["cpu_model"] and m["kernel"], m
	assert m["placement"] == "any", m
	assert d["repeat"] == 1 and d["duration_ns"] == 200000000
	f = d["floors"]
	assert f["socket_rtt_ns"] > 0 and f["debugfs_cycle_ns"] > 0
	assert all(c["memcpy_ns"] > 0 and c["pwrite_ns"] > 0 for c in f["copies"])
	got = [r["strategy"] for r in d["results"] if r["workload"] == workload]
	assert got == strategies, (got, strategies)
	for r in d["results"]:
	    name = "%s/%s" % (r["workload"], r["strategy"])
	    met = r["metrics"]
	    for k in ("ops_per_s", "wall_us_per_op", "ioctls_per_op",
	              "execbuffers_per_op", "floor_us_per_op", "wall_over_floor"):
	        v = met[k]
	        assert isinstance(v["median"], (int, float)), (name, k)
	        assert v["min"] > 0 and v["min"] <= v["median"] <= v["max"], (name, k, v)
	        assert v["spread_pct"] == 0, (name, k, v)   # one run
	    for k in ("client_cpu_us_per_op", "gemd_cpu_us_per_op",
	              "gemd_client_cpu_us_per_op", "gemd_mm_cpu_us_per_op",
	              "gemd_wait_other_cpu_us_per_op", "gemd_cpu_us_per_request",
	              "gpu_busy_us_per_op", "gpu_busy_pct", "binds_per_op",
	              "evictions_per_op", "clflush_bytes_per_op", "waits_per_op"):
	        assert met[k]["median"] >= 0, (name, k)
	    # what gemd measured for this client: every part of the work is there
	    for k in ("gemd_submit_cpu_us_per_op", "gemd_gpu_cpu_us_per_op"):
	        assert met[k]["median"] > 0, (name, k)
	    assert "gemd_rest_cpu_us_per_op" in met, name
	    assert "gemd_handler_cpu_us_per_op" not in met, name
	    assert ("mb_per_s" in met) == r["workload"].startswith("texdown"), name
	    assert r["consistent"] is True, name
	    (run,) = r["runs"]
	    assert run["ops"] > 0 and run["elapsed_ns"] > 0, (name, run)
	    assert run["counters_read"] is True, name
	    # gemd's figures for this client: the parts make its total, and
	    # the GPU model ran every batch
	    parts = sum(run["gemd_%s_cpu_ns" % p] for p in
	                ("mm", "submit", "gpu", "wait", "other", "retire"))
	    assert parts == run["gemd_client_cpu_ns"] > 0, (name, run)
	    # ... and account for most of gemd's process CPU over the window.
	    # What no client was charged for (idle threads, spins) grows on a
	    # loaded machine over a 0.2 s window (13% seen under run-tests
	    # --load), and a request charged whole may straddle the window's
	    # edge (parts 12% over, under ASan): the 10% agreement is
	    # gem_acct's, on a known workload.
	    g = run["gemd_cpu_ns"]
	    assert 0.5 * g <= parts <= 1.25 * g, (name, parts, g)
	    assert run["gpu_busy_ns"] > 0 and run["gemd_ioctls"] > 0, (name, run)
	    assert "gemd_handler_cpu_ns" not in run, name
	    assert run["execbuffers_counted"] == run["execbuffers_driver"] > 0, (name, run)
	    # gemd recounts a relocation pass restarted after a wait
	    if run["waits_driver"] == 0:
	        assert run["relocations_counted"] == run["relocations_driver"], (name, run)
	    else:
	        assert run["relocations_counted"] <= run["relocations_driver"], (name, run)
	    assert run["pwrite_bytes_counted"] == run["pwrite_bytes_driver"], (name, run)
	    execs = {"texdown": 1, "texdown-subimage": 1, "gears": 8, "ipers": 32,
	             "exec-nop": 1, "reloc": 1, "thrash": 1}[r["workload"]]
	    assert run["execbuffers_counted"] == execs * run["ops"], (name, run)
	    relocs = {"texdown": 2, "texdown-subimage": 2, "gears": 2 * 8 + 1,
	              "ipers": 32, "exec-nop": 0, "reloc": 64, "thrash": 1}[r["workload"]]
	    assert run["relocations_counted"] == relocs * run["ops"], (name, run)
	    if r["upload"] == "unsync":
	        assert run["pwrite_bytes_counted"] == 0, (name, run)
	EOF
}

test_expect_success 'start gemd (16 MiB aperture)' '
	start_gemd --aperture 16M
'

# Upload paths apply to the workloads that upload; the others run the
# allocation strategies only (pwrite, alone, is reuse with pwrite).
for w in texdown texdown-subimage gears; do
	test_expect_success "$w under every strategy: JSON, positive, consistent" '
		gemctl bench $w --strategy $ALL_STRATEGIES --duration 0.2s \
			--repeat 1 --json -o $w.json &&
		bench_check $w.json $w $ALL_STRATEGIES
	'
done
for w in ipers exec-nop reloc thrash; do
	test_expect_success "$w under every strategy that applies" '
		gemctl bench $w --strategy $ALL_STRATEGIES --duration 0.2s \
			--repeat 1 --json -o $w.json &&
		bench_check $w.json $w alloc,reuse,suballoc
	'
done

test_expect_success 'thrash evicts; exec-nop under alloc binds one batch per op' '
	python3 -c "
import json
d = json.load(open(\"thrash.json\"))
assert all(r[\"metrics\"][\"evictions_per_op\"][\"median\"] > 0 for r in d[\"results\"])
d = json.load(open(\"exec-nop.json\"))
r = [r for r in d[\"results\"] if r[\"strategy\"] == \"alloc\"][0]
assert r[\"metrics\"][\"binds_per_op\"][\"median\"] == 1, r[\"metrics\"][\"binds_per_op\"]
"
'

test_expect_success 'the text table: one row per result, counts ok' '
	gemctl bench exec-nop reloc --strategy alloc,suballoc --duration 0.2s \
		--repeat 2 >table &&
	grep "^floors: socket round trip [0-9]* ns" table &&
	grep "^workload  *strategy  *ops/s" table &&
	test $(grep -c "^exec-nop  *alloc .* ok$" table) = 1 &&
	test $(grep -c "^exec-nop  *suballoc .* ok$" table) = 1 &&
	test $(grep -c "^reloc  *alloc .* ok$" table) = 1 &&
	test $(grep -c "^reloc  *suballoc .* ok$" table) = 1 &&
	test $(grep -c " ok$" table) = 4 &&
	grep "^alloc / suballoc, run by run: the median ratio (min-max):$" table &&
	grep -E "^exec-nop( +[0-9.]+x \([0-9.]+-[0-9.]+\)){7}$" table &&
	grep -E "^reloc( +[0-9.]+x \([0-9.]+-[0-9.]+\)){7}$" table
'

test_expect_success 'the JSON has alloc / suballoc run by run for each workload' '
	python3 -c "
import json
d = json.load(open(\"exec-nop.json\"))
(r,) = d[\"alloc_over_suballoc\"]
assert r[\"workload\"] == \"exec-nop\", r
a = [x for x in d[\"results\"] if x[\"strategy\"] == \"alloc\"][0][\"runs\"][0]
s = [x for x in d[\"results\"] if x[\"strategy\"] == \"suballoc\"][0][\"runs\"][0]
w = r[\"metrics\"][\"wall_us_per_op\"]
want = (a[\"elapsed_ns\"] / a[\"ops\"]) / (s[\"elapsed_ns\"] / s[\"ops\"])
assert abs(w[\"median\"] - want) < 1e-6 * want and w[\"min\"] == w[\"max\"] == w[\"median\"], (w, want)
assert set(r[\"metrics\"]) == {\"wall_us_per_op\", \"total_cpu_us_per_op\", \"client_cpu_us_per_op\", \"gemd_cpu_us_per_op\",
    \"gemd_mm_cpu_us_per_op\", \"gemd_submit_cpu_us_per_op\", \"gemd_gpu_cpu_us_per_op\"}, r
"
'

test_expect_success '--repeat 3: three runs, min <= median <= max' '
	gemctl bench exec-nop --strategy reuse --duration 0.2s --repeat 3 \
		--json >r3.json &&
	python3 -c "
import json
d = json.load(open(\"r3.json\"))
(r,) = d[\"results\"]
assert len(r[\"runs\"]) == 3
ops = sorted(x[\"ops\"] / x[\"elapsed_ns\"] * 1e9 for x in r[\"runs\"])
m = r[\"metrics\"][\"ops_per_s\"]
assert abs(m[\"min\"] - ops[0]) < 1e-6 * ops[0] and abs(m[\"max\"] - ops[2]) < 1e-6 * ops[2]
assert abs(m[\"median\"] - ops[1]) < 1e-6 * ops[1]
assert abs(m[\"spread_pct\"] - (ops[2] - ops[0]) / ops[1] * 100) < 1e-6
"
'

test_expect_success '--placement same: pinned, and said so' '
	gemctl bench exec-nop --strategy reuse --duration 0.2s --repeat 1 \
		--placement same --json >same.json &&
	json_check "d[\"machine\"][\"placement\"] == \"same\"" <same.json
'

test_expect_success '--compare: a run against itself changes nothing' '
	gemctl bench --compare exec-nop.json exec-nop.json >cmp &&
	grep "^exec-nop  *alloc  *ops_per_s .* 1.000  $" cmp &&
	grep "^[0-9]* figures compared, 0 changed beyond" cmp
'

test_expect_success '--compare flags a change beyond the spread' '
	python3 -c "
import json
d = json.load(open(\"exec-nop.json\"))
for r in d[\"results\"]:
    r[\"metrics\"][\"ops_per_s\"][\"median\"] *= 2
json.dump(d, open(\"faster.json\", \"w\"))
" &&
	gemctl bench --compare exec-nop.json faster.json >cmp &&
	grep "^exec-nop  *alloc  *ops_per_s .* 2.000  better$" cmp &&
	grep "^[0-9]* figures compared, 3 changed beyond" cmp
'

test_expect_success 'micro gathers the micro benchmarks'"'"' lines' '
	mkdir fake &&
	cat >fake/gem-bench <<-\EOF &&
	#!/bin/sh
	echo "{\"version\":\"x\",\"results\":[{\"name\":\"ioctl (GETPARAM)\",\"median_ns\":1000.0,\"min_ns\":900.0,\"max_ns\":1100.0,\"floor\":\"socket round trip\",\"ratio\":1.1000,\"goal_ratio\":1.25,\"status\":\"PASS\"}]}"
	EOF
	cat >fake/debugfs-bench <<-\EOF &&
	#!/bin/sh
	echo "generation (gemkit_objects)   10.0 ms   floor  8.0 ms   ratio  1.25   goal <= 1.50  met"
	exit 1
	EOF
	cat >fake/gemtop-bench <<-\EOF &&
	#!/bin/sh
	echo "1000       0.25        0.02%          0.37%        0.20%     1% ok     "
	echo "100000    70.74        7.07%         12.04%        2.77%    10% OVER"
	EOF
	cat >fake/metrics-bench <<-\EOF &&
	#!/bin/sh
	echo "  under lock  snapshot for gemkit_counters   0.14 us   for the metrics   0.68 us   ratio  4.70   goal <= 2.00  MISSED"
	echo "growth: the OpenMetrics scrape at 100000 objects is 1.00x the one at 1000 (6164 bytes both times)   goal <= 1.50  met"
	EOF
	chmod +x fake/gem-bench fake/debugfs-bench fake/gemtop-bench fake/metrics-bench &&
	GEMCTL_BENCH_DIR=$PWD/fake gemctl bench micro >micro 2>err &&
	grep "^gem-bench  *ioctl (GETPARAM): 1000 ns, 1.10x socket round trip (goal <= 1.25x) *PASS$" micro &&
	grep "^debugfs-bench  *generation (gemkit_objects) .* met *PASS$" micro &&
	grep "^debugfs-bench  *exited with status 1" micro &&
	grep "^preload-bench  *not built" micro &&
	grep "^gemtop-bench  *1000 .* 1% ok *PASS$" micro &&
	grep "^gemtop-bench  *100000 .* 10% OVER *MISS$" micro &&
	grep "^metrics-bench  *under lock .* ratio  4.70   goal <= 2.00  MISSED *MISS$" micro &&
	grep "^metrics-bench  *growth: .* goal <= 1.50  met *PASS$" micro &&
	rm fake/gemtop-bench &&
	GEMCTL_BENCH_DIR=$PWD/fake gemctl bench micro >micro 2>err &&
	grep "^gemtop-bench  *not run: .*gemtop-bench: No such file or directory" micro &&
	# A path longer than the figure column (and than any fixed buffer)
	# is printed whole, the errno text after it included.
	long=$PWD/fake/$(printf "%060d" 0)/$(printf "%060d" 1)/$(printf "%060d" 2) &&
	mkdir -p "$long" &&
	GEMCTL_BENCH_DIR=$long gemctl bench micro >micro 2>err &&
	grep -Fx "gemtop-bench   not run: $long/gemtop-bench: No such file or directory" micro &&
	grep -Fx "debugfs-bench  not run: $long/debugfs-bench: No such file or directory" micro &&
	GEMCTL_BENCH_DIR=$PWD/fake gemctl bench micro --json >micro.json 2>err &&
	json_check "len(d[\"micro\"]) == 7 and d[\"micro\"][0][\"status\"] == \"PASS\" and d[\"micro\"][-1][\"program\"] == \"metrics-bench\"" <micro.json
'

test_expect_success 'gl runs gl-bench on gemd and on llvmpipe, and compares' '
	mkdir -p fakegl &&
	cat >fakegl/gl-bench <<-\EOF &&
	#!/bin/sh
	# 10 frames a second on the device, 40 on llvmpipe; a thread of
	# gemd serves this client only in the device run.
	f=10; test "$1" = --sw && f=40
	echo ready
	echo "done frames=$f ns=1000000000 user_ns=5000000 sys_ns=0 pixels=$((f * 1048576))"
	cat >/dev/null
	EOF
	chmod +x fakegl/gl-bench &&
	GEMCTL_BENCH_DIR=$PWD/fakegl gemctl bench gl --repeat 1 --duration 10ms >gl 2>err &&
	grep "^fill-flat  *i915  *10.00  *10.5  *0.50 .* 0.250x$" gl &&
	grep "^fill-flat  *llvmpipe  *40.00  *41.9  *0.12 *$" gl &&
	grep "^ipers  *i915  *10.00  *0.50 .*0.250x$" gl &&
	test $(grep -c "^[a-z-]*  *i915 " gl) -eq 8 &&
	GEMCTL_BENCH_DIR=$PWD/fakegl gemctl bench gl --repeat 1 --duration 10ms --json >gl.json &&
	json_check "len(d[\"gl\"]) == 16 and d[\"gl\"][0][\"x_llvmpipe_permille\"] == 250" <gl.json &&
	test_expect_code 2 gemctl bench gl exec-nop 2>err &&
	stderr_has "gl runs on its own"
'

test_expect_success 'usage errors exit 2, a missing device 3' '
	test_expect_code 2 gemctl bench frobnicate 2>err &&
	stderr_has "unknown workload or suite '\''frobnicate'\''" &&
	test_expect_code 2 gemctl bench exec-nop --strategy bogus 2>err &&
	stderr_has "unknown strategy '\''bogus'\''" &&
	test_expect_code 2 gemctl bench exec-nop --repeat 0 2>err &&
	test_expect_code 2 gemctl bench exec-nop --duration never 2>err &&
	test_expect_code 2 gemctl bench exec-nop --placement far 2>err &&
	test_expect_code 2 gemctl bench --compare one.json 2>err &&
	test_expect_code 2 gemctl bench ipers --strategy gtt-map 2>err &&
	stderr_has "no strategy applies" &&
	test_expect_code 3 "$GEMCTL" -D "$NODEV" bench exec-nop 2>err &&
	test_expect_code 1 gemctl bench --compare nothing.json exec-nop.json 2>err &&
	stderr_has "cannot read '\''nothing.json'\''"
'

test_expect_success 'micro shows gem-bench'"'"'s placements and passes --placement on' '
	mkdir fakeplace &&
	cat >fakeplace/gem-bench <<-\EOF &&
	#!/bin/sh
	echo "$@" >"$(dirname "$0")/args"
	echo "{\"version\":\"x\",\"placements\":[{\"placement\":\"same\",\"measured\":true},{\"placement\":\"cross\",\"measured\":false,\"why\":\"gem-bench may run on one CPU only\"}],\"results\":[{\"name\":\"ioctl (GETPARAM) [shm]\",\"placement\":\"same\",\"median_ns\":1000.0,\"min_ns\":900.0,\"max_ns\":1100.0,\"floor\":\"futex ping-pong\",\"ratio\":0.5000,\"goal_ratio\":3.00,\"status\":\"PASS\"}]}"
	EOF
	chmod +x fakeplace/gem-bench &&
	GEMCTL_BENCH_DIR=$PWD/fakeplace gemctl bench micro >micro 2>err &&
	echo "-D $GEMD_SOCK --json" >expect &&
	test_cmp expect fakeplace/args &&
	grep -Fx "gem-bench      cross  not measured: gem-bench may run on one CPU only" micro &&
	grep "^gem-bench  *same   ioctl (GETPARAM) \[shm\]: 1000 ns, 0.50x futex ping-pong (goal <= 3.00x) *PASS$" micro &&
	GEMCTL_BENCH_DIR=$PWD/fakeplace gemctl bench micro --placement cross --json >micro.json 2>err &&
	echo "-D $GEMD_SOCK --json --placement cross" >expect &&
	test_cmp expect fakeplace/args &&
	json_check "[(r[\"placement\"], r[\"text\"]) for r in d[\"micro\"][:2]] == [(\"cross\", \"not measured: gem-bench may run on one CPU only\"), (\"same\", \"ioctl (GETPARAM) [shm]: 1000 ns, 0.50x futex ping-pong (goal <= 3.00x)\")] and \"placement\" not in d[\"micro\"][2]" <micro.json
'

test_expect_success 'stop gemd' '
	stop_gemd
'

# gem_bench_check FILE PLACEMENTS NCPUS: gem-bench's JSON document in FILE
# has, for each of PLACEMENTS (in gem-bench's order), every row measured
# in that placement (figures and their floors alike), or exactly why it
# was not: one CPU when gem-bench was given NCPUS < 2 CPUs, else a
# refused sched_setaffinity.
gem_bench_check () {
	python3 - "$@" <<-\EOF
	import json, re, sys
	path, asked, ncpus = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
	d = json.load(open(path))
	rows = ["socket round trip", "futex ping-pong", "system call"]
	for t in ("socket", "shm"):
	    rows += ["%s [%s]" % (n, t) for n in ("ioctl (GETPARAM)",
	             "accounting per ioctl", "nop execbuffer", "BUSY, idle object",
	             "create+close 4 KiB")]
	    for size in ("4 KiB", "1 MiB", "64 MiB"):
	        rows += ["%s %s [%s]" % (op, size, t) for op in ("memcpy", "pwrite", "pread")]
	assert [p["placement"] for p in d["placements"]] == asked, d["placements"]
	assert {r["placement"] for r in d["results"]} <= set(asked), d["results"]
	for p in d["placements"]:
	    got = [r for r in d["results"] if r["placement"] == p["placement"]]
	    if not p["measured"]:
	        assert got == [], got
	        if p["placement"] == "cross" and ncpus < 2:
	            assert p["why"] == "gem-bench may run on one CPU only", p
	        else:
	            assert p["placement"] != "any", p
	            assert re.match(r"cannot pin (gemd's thread [0-9]+|gem-bench): ", p["why"]), p
	        continue
	    assert "why" not in p, p
	    names = [r["name"] for r in got]
	    assert names == rows, (p, names)
	    for r in got:
	        assert r["median_ns"] > 0, r
	        assert "floor" not in r or r["floor"] in names, r
	EOF
}

# masks PID: the CPU masks of gemd's threads, one line each, sorted.
masks () {
	cat /proc/$1/task/*/status | sed -n "s/^Cpus_allowed_list:[	 ]*//p" | sort -u
}

# one_cpu CMD...: CMD with this shell's first allowed CPU only.
one_cpu () {
	python3 -c "import os, sys
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
os.execvp(sys.argv[1], sys.argv[1:])" "$@"
}

GEM_BENCH="$GEMKIT_BUILD_DIR/gem-bench"
NCPUS=$(python3 -c "import os; print(len(os.sched_getaffinity(0)))")

test_expect_success 'start gemd (default aperture, for gem-bench)' '
	start_gemd
'

test_expect_success 'gem-bench measures every row in each placement, gemd'"'"'s masks given back' '
	masks $(gemd_pid) >masks.before &&
	"$GEM_BENCH" -D "$GEMD_SOCK" -n 3 -r 1 --json >gb.json &&
	gem_bench_check gb.json same,cross $NCPUS &&
	masks $(gemd_pid) >masks.after &&
	test_cmp masks.before masks.after &&
	"$GEM_BENCH" -D "$GEMD_SOCK" -n 3 -r 1 --placement any,same --json >gb.json &&
	gem_bench_check gb.json same,any $NCPUS &&
	masks $(gemd_pid) >masks.after &&
	test_cmp masks.before masks.after
'

test_expect_success 'gem-bench on one CPU: cross is not measured, and says why' '
	one_cpu "$GEM_BENCH" -D "$GEMD_SOCK" -n 3 -r 1 --placement cross --json >gb.json &&
	gem_bench_check gb.json cross 1 &&
	one_cpu "$GEM_BENCH" -D "$GEMD_SOCK" -n 3 -r 1 --placement cross >gb.txt &&
	grep -Fx "cross  not measured: gem-bench may run on one CPU only" gb.txt &&
	masks $(gemd_pid) >masks.after &&
	test_cmp masks.before masks.after &&
	test_expect_code 2 "$GEM_BENCH" --placement same,far 2>err &&
	stderr_has "invalid --placement '\''same,far'\'': a list of same, cross and any"
'

test_expect_success 'micro runs the real gem-bench: a row per result, each with its placement' '
	mkdir realgb &&
	printf "#!/bin/sh\nexec \"%s\" -n 3 -r 1 \"\$@\"\n" "$GEM_BENCH" >realgb/gem-bench &&
	chmod +x realgb/gem-bench &&
	GEMCTL_BENCH_DIR=$PWD/realgb gemctl bench micro --placement same >micro 2>err &&
	test $(grep -c "^gem-bench      same   " micro) -eq 31 &&
	grep "^gem-bench  *same   nop execbuffer \[shm\]: [0-9]* ns, [0-9.]*x futex ping-pong (goal <= 4.00x) *\(PASS\|MISS\)$" micro &&
	! grep "^gem-bench      \(cross\|any\) " micro &&
	masks $(gemd_pid) >masks.after &&
	test_cmp masks.before masks.after
'

test_expect_success 'stop gemd (gem-bench)' '
	stop_gemd
'

test_done
