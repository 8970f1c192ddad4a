#!/bin/sh
# gemctl inspection verbs (through libgemdebugfs), in text and JSON, the
# JSON parsed by a real parser with exact values.
test_description='gemctl info/list/inspect/gtt/seqno/requests/clients/events'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

test_expect_success 'start gemd (16M aperture, debugfs over the socket)' '
	start_gemd --no-debugfs --aperture 16M
'

test_expect_success 'info: aperture, fences, seqnos, counters' '
	gemctl info >out &&
	grep "^device $GEMD_SOCK$" out &&
	grep "^debugfs socket $GEMD_SOCK$" out &&
	grep "^aperture 16777216 " out &&
	grep "^fences 0 of 16 in use$" out &&
	grep "^seqno emitted 0 completed 0; 0 outstanding, idle$" out &&
	grep "^  execbuffers  *0$" out
'

test_expect_success 'info --json' '
	gemctl --json info >out &&
	json_check "d[\"aperture\"][\"size\"] == 16777216 and d[\"fences\"][\"total\"] == 16 and d[\"seqno\"][\"idle\"] is True and d[\"counters\"][\"execbuffers\"] == 0" <out
'

test_expect_success 'list --mine, inspect a handle and --id, in one session' '
	gemctl -c "h = create 65536; tiling \$h x 512; fill \$h 0 0 16 16 7 --pitch 512; wait \$h
		list --mine; inspect \$h" >out &&
	grep -E "^ +[0-9]+ +65536 inactive 0x[0-9a-f]{8} +render +x +[0-9-]+ +0 +1 gemctl\\([0-9]+\\):1$" out &&
	grep "^  size 65536$" out &&
	grep "^  tiling x stride 512$" out &&
	grep "^  owner file [0-9]* pid [0-9]* (gemctl) handle 1$" out
'

test_expect_success 'inspect --json: the object with exact fields' '
	gemctl --json -c "h = create 16384; n = flink \$h; inspect \$h" >out &&
	json_check "d[\"handle\"] == 1 and d[\"object\"][\"size\"] == 16384 and d[\"object\"][\"name\"] == 1 and d[\"object\"][\"list\"] == \"unbound\" and d[\"object\"][\"gtt_offset\"] is None and d[\"object\"][\"owners\"][0][\"handle\"] == 1 and d[\"object\"][\"tiling\"] == \"none\"" <out
'

test_expect_success 'set-domain and map show up in inspect (domain experiments)' '
	gemctl -c "h = create 8192; set-domain \$h gtt,gtt; inspect \$h; set-domain \$h cpu,cpu; inspect \$h
		map \$h --gtt; set-domain \$h gtt; inspect \$h" >out &&
	grep "^  domains read gtt write gtt$" out &&
	grep "^  domains read cpu write cpu$" out &&
	grep "^handle 1 mapped gtt at 0x[0-9a-f]* length 8192$" out &&
	grep "^  domains read cpu|gtt write none$" out
'

test_expect_success 'inspect: unknown id, no handles in this session, usage' '
	test_expect_code 1 gemctl inspect --id 99999 2>err &&
	stderr_has "no object with id 99999" &&
	test_expect_code 1 gemctl inspect 1 2>err &&
	stderr_has "gemctl inspect: no object with handle 1 (this gemctl holds no handles: keep them across runs with -S NAME, or use --id)" &&
	test_expect_code 2 gemctl inspect 2>err &&
	test_expect_code 1 gemctl -c "h = create 4096; inspect 7" 2>err &&
	stderr_has "gemctl inspect: no object with handle 7"
'

test_expect_success 'list filters: --list, --domain, --min-size, --client' '
	gemctl -q -c "a = create 4096; b = create 1M; fill \$b 0 0 4 4 1; wait \$b
		list --mine; list --mine --min-size 64K; list --mine --list unbound
		list --mine --domain render; list --client gemctl --max-size 4096" >out &&
	printf "2\n1\n1\n1\n1\n" >expect &&
	test_cmp expect out
'

test_expect_success 'list: bad filters' '
	test_expect_code 2 gemctl list --list sideways 2>err &&
	stderr_has "list '\''sideways'\'' is not" &&
	test_expect_code 2 gemctl list --domain blue 2>err &&
	test_expect_code 1 gemctl list --mine 2>err &&
	stderr_has "--mine: this session has not opened the device"
'

test_expect_success 'list --json: one document with every object' '
	gemctl --json -c "a = create 8192; list --mine" >out &&
	json_check "d[\"count\"] == 1 and d[\"objects\"][0][\"size\"] == 8192" <out
'

test_expect_success 'gtt: the ring is pinned at 0; a bound object shows up' '
	gemctl -c "h = create 65536; fill \$h 0 0 4 4 1; wait \$h; gtt --holes" >out &&
	grep "^0x00000000-0x00020000     131072 obj [0-9]* pinned pinned fence -1$" out &&
	grep "^0x00020000-0x00030000      65536 obj [0-9]* inactive fence -1$" out &&
	grep "^0x00030000-0x01000000 *16580608 hole$" out &&
	grep "^total 16777216 used 196608 free 16580608 largest hole 16580608 pinned 131072 evictable 65536; 2 ranges, 1 holes$" out
'

test_expect_success 'gtt --json and -q' '
	gemctl -q gtt >out &&
	echo 16646144 >expect &&
	test_cmp expect out &&
	gemctl --json gtt --holes >out &&
	json_check "d[\"total\"] == 16777216 and d[\"ranges\"] == 1 and d[\"map\"][0][\"kind\"] == \"range\" and d[\"map\"][0][\"pin\"] >= 1 and d[\"map\"][-1][\"kind\"] == \"hole\"" <out
'

test_expect_success 'fences: the register a tiled blit target holds; --all, --json, -q' '
	gemctl -c "h = create 65536; tiling \$h x 512; fill \$h 0 0 8 8 0xff --pitch 512; wait \$h
		fences; fences --all; set json on; fences; set json off; set quiet on; fences" >out &&
	test $(grep -c "^FENCE  *OBJ OFFSET  *SIZE TILING STRIDE PIN$" out) = 2 &&
	test $(grep -c -E "^ +0 +[0-9]+ 0x[0-9a-f]{8} +[0-9]+ x +512 +0$" out) = 2 &&
	test $(grep -c "^1 of 16 in use$" out) = 2 &&
	test $(grep -c -E "^ +[0-9]+ +-$" out) = 15 &&
	grep "^{" out | json_check "d[\"used\"] == 1 and d[\"total\"] == 16 and d[\"fences\"][0][\"fence\"] == 0 and d[\"fences\"][0][\"tiling\"] == \"x\" and d[\"fences\"][0][\"stride\"] == 512" &&
	tail -n 1 out >last &&
	echo 1 >expect &&
	test_cmp expect last &&
	gemctl -q fences >out &&
	echo 0 >expect &&
	test_cmp expect out
'

test_expect_success 'seqno counts the submissions' '
	S0=$(gemctl -q seqno) &&
	gemctl -c "h = create 4096; fill \$h 0 0 4 4 1; fill \$h 0 0 4 4 2; wait \$h" &&
	S1=$(gemctl -q seqno) &&
	test $S1 -eq $((S0 + 2)) &&
	gemctl --json seqno | json_check "d[\"completed\"] == d[\"emitted\"] == $S1 and d[\"outstanding\"] == 0"
'

test_expect_success 'requests: none outstanding when idle' '
	gemctl requests >out &&
	grep "^ring render head 0x[0-9a-f]* tail 0x[0-9a-f]* acthd 0x[0-9a-f]* idle$" out &&
	test $(wc -l <out) -eq 1 &&
	gemctl --json requests | json_check "d[\"requests\"] == [] and d[\"idle\"] is True"
'

test_expect_success 'clients: this session appears with its handles and bytes' '
	gemctl -c "a = create 4096; b = create 8192; clients" >out &&
	grep -E "^ +[0-9]+ +[0-9]+ gemctl +2 +12288 +0 +0 +[0-9]+\.[0-9]{3} +0\.000 +0$" out &&
	gemctl --json -c "a = create 4096; clients" |
	json_check "d[\"count\"] == 1 and d[\"clients\"][0][\"comm\"] == \"gemctl\" and d[\"clients\"][0][\"handle_bytes\"] == 4096"
'

test_expect_success 'clients --json: the usage figures gemd measured for each file' '
	gemctl --json -c "a = create 4096; b = create 8192; write \$b --length 4 --fill 1; madvise \$b dontneed; clients" |
	tail -n 1 >usage.json &&
	json_check "[(c[\"total_bytes\"], c[\"resident_bytes\"], c[\"purgeable_bytes\"], c[\"active_bytes\"], c[\"ioctls\"], c[\"execbuffers\"], c[\"engine_render_ns\"], c[\"waits\"]) for c in d[\"clients\"]] == [(12288, 12288, 8192, 0, 4, 0, 0, 0)]" <usage.json &&
	json_check "d[\"clients\"][0][\"cpu_mm_ns\"] > 0 and d[\"clients\"][0][\"cpu_ns\"] == sum(d[\"clients\"][0][k] for k in (\"cpu_mm_ns\", \"cpu_submit_ns\", \"cpu_wait_ns\", \"cpu_other_ns\", \"cpu_gpu_ns\", \"cpu_retire_ns\"))" <usage.json
'

# A wait may end on the status page's seqno before gemd's retire worker
# has run: the retire event comes when gemd retires, as the kernel's does.
events_since_have_retire_ () {
	gemctl events --since "$1" >out && grep -q " retire seqno [0-9]*$" out
}

test_expect_success 'events: a fill shows bind, submit and retire; --since skips' '
	N=$(gemctl -q events) &&
	gemctl -c "h = create 4096; fill \$h 0 0 4 4 1; wait \$h" &&
	test_wait_for 60 events_since_have_retire_ $N &&
	grep " bind obj [0-9]* offset 0x[0-9a-f]* size 4096$" out &&
	grep " submit seqno [0-9]* file [0-9]*$" out &&
	grep " retire seqno [0-9]*$" out &&
	M=$(gemctl -q events --since $N) &&
	gemctl events --since $M >out &&
	test_must_be_empty out
'

test_expect_success 'events --json' '
	gemctl --json events --since 0 | json_check "len(d[\"events\"]) > 0 and d[\"events\"][0][\"seq\"] >= 1 and \"type\" in d[\"events\"][-1]"
'

test_expect_success 'events --follow ends at --timeout with status 0 and sees new events' '
	N=$(gemctl -q events) &&
	( gemctl events --follow --since $N --timeout 3s >follow & echo $! >fpid ) &&
	gemctl -c "h = create 4096; fill \$h 0 0 4 4 1; wait \$h" &&
	test_wait_for 10 grep -q " retire seqno" follow &&
	wait $(cat fpid) 2>/dev/null; true
'

test_expect_success 'events: bad --since' '
	test_expect_code 2 gemctl events --since many 2>err &&
	stderr_has "bad seq '\''many'\''"
'

test_done
