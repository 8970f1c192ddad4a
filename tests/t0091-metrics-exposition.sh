#!/bin/sh
# The exposition's families, pinned: names, types and units as dashboards
# and alert rules name them, and values that agree with gemkit_counters
# after a known workload; checked by Prometheus' own parsers.
test_description='gemctl metrics: names, types, values'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"
. "$GEMKIT_SRC_DIR/tests/metrics-lib.sh"

test_expect_success 'start gemd' '
	start_gemd --no-debugfs
'

test_expect_success 'a known workload, then metrics and info in the same session' '
	gemctl --json -c "a = create 65536; b = create 4096
		write \$a --fill 1 --length 8192; read \$a --length 100
		fill \$a 0 0 16 16 0xff; wait \$a; metrics; info
		metrics --openmetrics" >out &&
	python3 -c "
import json, sys
docs = [json.loads(l) for l in open(\"out\")]
open(\"prom\", \"w\").write(docs[-3][\"exposition\"])
json.dump(docs[-2][\"counters\"], open(\"counters\", \"w\"))
open(\"om\", \"w\").write(docs[-1][\"exposition\"])
"
'

# The families and their types, as Prometheus sees them: the interface.
cat >expect-types <<'EOT'
# TYPE gemkit_aperture_bytes gauge
# TYPE gemkit_aperture_largest_hole_bytes gauge
# TYPE gemkit_aperture_used_bytes gauge
# TYPE gemkit_bans_total counter
# TYPE gemkit_binds_total counter
# TYPE gemkit_build_info gauge
# TYPE gemkit_clflush_bytes_total counter
# TYPE gemkit_client_object_bytes gauge
# TYPE gemkit_client_objects gauge
# TYPE gemkit_client_requests gauge
# TYPE gemkit_clients gauge
# TYPE gemkit_evictions_total counter
# TYPE gemkit_execbuffers_total counter
# TYPE gemkit_fenced_objects gauge
# TYPE gemkit_gpu_batches_total counter
# TYPE gemkit_gpu_blit_bytes_total counter
# TYPE gemkit_gpu_busy_seconds_total counter
# TYPE gemkit_hangcheck_period_seconds gauge
# TYPE gemkit_hangs_total counter
# TYPE gemkit_object_bytes gauge
# TYPE gemkit_objects gauge
# TYPE gemkit_oldest_request_age_seconds gauge
# TYPE gemkit_pinned_bytes gauge
# TYPE gemkit_pread_bytes_total counter
# TYPE gemkit_pwrite_bytes_total counter
# TYPE gemkit_relocations_total counter
# TYPE gemkit_requests_completed_total counter
# TYPE gemkit_requests_emitted_total counter
# TYPE gemkit_requests_outstanding gauge
# TYPE gemkit_resets_total counter
# TYPE gemkit_wait_seconds_total counter
# TYPE gemkit_waits_total counter
# TYPE gemkit_wedged gauge
# TYPE process_cpu_seconds_total counter
# TYPE process_max_fds gauge
# TYPE process_open_fds gauge
# TYPE process_resident_memory_bytes gauge
# TYPE process_start_time_seconds gauge
# TYPE process_virtual_memory_bytes gauge
EOT

test_expect_success 'the families and their types (Prometheus 0.0.4)' '
	grep "^# TYPE" prom | sort >types &&
	test_cmp expect-types types
'

test_expect_success 'OpenMetrics: counters without _total, units, info, # EOF' '
	grep "^# TYPE gemkit_execbuffers counter$" om &&
	grep "^gemkit_execbuffers_total 1$" om &&
	grep "^# UNIT gemkit_clflush_bytes bytes$" om &&
	grep "^# UNIT gemkit_gpu_busy_seconds seconds$" om &&
	grep "^# TYPE gemkit_build info$" om &&
	test "$(tail -n 1 om)" = "# EOF" &&
	! grep "^# UNIT" prom &&
	! grep "^# EOF" prom
'

test_expect_success 'the values agree with gemkit_counters and the workload' '
	python3 - <<-\EOP
	import json, re
	c = json.load(open("counters"))
	v = {}
	for line in open("prom"):
	    if line.startswith("#"):
	        continue
	    m = re.match(r"^([a-z_]+)(\{.*\})? (\S+)$", line)
	    assert m, line
	    v.setdefault(m.group(1), {})[m.group(2) or ""] = m.group(3)
	def one(name):
	    return v[name][""]
	def total(name):
	    return sum(int(x) for x in v[name].values())
	same = {
	    "gemkit_execbuffers_total": "execbuffers",
	    "gemkit_relocations_total": "relocations",
	    "gemkit_binds_total": "binds",
	    "gemkit_evictions_total": "evictions",
	    "gemkit_waits_total": "waits",
	    "gemkit_clflush_bytes_total": "clflush_bytes",
	    "gemkit_pread_bytes_total": "pread_bytes",
	    "gemkit_pwrite_bytes_total": "pwrite_bytes",
	    "gemkit_resets_total": "resets",
	    "gemkit_bans_total": "bans",
	    "gemkit_wedged": "wedged",
	    "gemkit_pinned_bytes": "pinned_bytes",
	    "gemkit_aperture_bytes": "aperture",
	    "gemkit_aperture_largest_hole_bytes": "gtt_largest_hole",
	    "gemkit_gpu_batches_total": "gpu_batches",
	    "gemkit_gpu_blit_bytes_total": "gpu_blit_bytes",
	    "gemkit_requests_completed_total": "retires",
	}
	for name, key in same.items():
	    assert int(one(name)) == c[key], (name, one(name), key, c[key])
	assert total("gemkit_hangs_total") == c["hangs"]
	assert total("gemkit_objects") == c["objects"]
	assert total("gemkit_object_bytes") == c["object_bytes"]
	for l in ("unbound", "inactive", "active", "flushing", "pinned"):
	    assert int(v["gemkit_objects"]["{list=\"%s\"}" % l]) == c[l + "_objects"], l
	    assert int(v["gemkit_object_bytes"]["{list=\"%s\"}" % l]) == c[l + "_bytes"], l
	assert int(one("gemkit_aperture_used_bytes")) == c["aperture"] - c["gtt_free"]
	assert one("gemkit_gpu_busy_seconds_total") == "%d.%09d" % divmod(c["gpu_busy_ns"], 10**9)
	assert one("gemkit_wait_seconds_total") == "%d.%09d" % divmod(c["wait_ns"], 10**9)
	# What the workload did: a blit of 16x16 pixels, one batch, 100 bytes read.
	assert int(one("gemkit_execbuffers_total")) == 1
	assert int(one("gemkit_gpu_blit_bytes_total")) == 16 * 16 * 4
	assert int(one("gemkit_pread_bytes_total")) == 100
	assert int(one("gemkit_requests_emitted_total")) == 1
	assert int(one("gemkit_requests_outstanding")) == 0
	assert one("gemkit_oldest_request_age_seconds") == "0.000000000"
	assert one("gemkit_hangcheck_period_seconds") == "1.500000000"
	assert set(v["gemkit_hangs_total"]) == {"{kind=\"%s\"}" % k for k in
	    ("hangcheck", "runaway", "fault", "badop", "wedged", "watchdog")}
	# The session itself: one process holding a (64 KiB) and b (4 KiB).
	assert int(one("gemkit_clients")) == 1
	(labels,) = v["gemkit_client_objects"]
	assert re.match(r"^\{pid=\"[0-9]+\",comm=\"gemctl\"\}$", labels), labels
	assert v["gemkit_client_objects"][labels] == "2"
	assert v["gemkit_client_object_bytes"][labels] == str(65536 + 4096)
	assert v["gemkit_client_requests"][labels] == "0"
	assert int(one("process_open_fds")) > 0
	assert int(one("process_resident_memory_bytes")) > 0
	EOP
'

if command -v promtool >/dev/null 2>&1; then
	test_expect_success 'promtool check metrics accepts gemctl metrics' '
		gemctl metrics >out &&
		promtool_check out
	'
else
	test_skip 'promtool check metrics accepts gemctl metrics' \
		'promtool not installed (Debian package prometheus)'
fi

if have_openmetrics_parser; then
	test_expect_success 'the OpenMetrics parser accepts gemctl metrics --openmetrics' '
		gemctl metrics --openmetrics >out &&
		openmetrics_check out
	'
else
	test_skip 'the OpenMetrics parser accepts gemctl metrics --openmetrics' \
		'python3-prometheus-client not installed'
fi

test_expect_success 'a hang counts under its kind, and in gemkit_counters' '
	gemctl -c "hang --kind badop; wait-hang" >/dev/null &&
	gemctl metrics >prom &&
	grep "^gemkit_hangs_total{kind=\"badop\"} 1$" prom &&
	grep "^gemkit_hangs_total{kind=\"hangcheck\"} 0$" prom &&
	grep "^gemkit_resets_total 1$" prom &&
	gemctl --json info | json_check "d[\"counters\"][\"hangs\"] == 1"
'

test_expect_success 'gemctl metrics: usage errors' '
	test_expect_code 2 gemctl metrics --bogus 2>err &&
	test_expect_code 2 gemctl metrics extra 2>err &&
	test_expect_code 3 "$GEMCTL" -D "$NODEV" metrics 2>err
'

test_done
