#!/bin/sh
# gemdump list, info and hang --json: one JSON document a command (a real
# parser reads it), raw numbers with the units in the field names, the
# same facts as the text.
test_description='gemdump list/info/hang --json; --human and --bytes'
. "$(dirname "$0")/test-lib.sh"

GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
POPULATE="$GEMKIT_BUILD_DIR/tests/gemdump/gd-populate"
GOLDEN="$GEMKIT_SRC_DIR/tests/golden/gemdump"
if ! test -x "$GEMDUMP" || ! test -x "$POPULATE"; then
	echo "1..0 # SKIP gemdump or gd-populate is not built"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP no python3 to parse the JSON"
	exit 0
fi

# json_eval FILE EXPR: FILE is one JSON document on one line; print EXPR
# over it (d).
json_eval () {
	python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, "%d lines" % len(lines)
d = json.loads(lines[0])
assert d["schema_version"] == 1 and d["tool"] == "gemdump", d
print(eval(sys.argv[2]))
' "$1" "$2"
}

test_expect_success 'setup: a capture of a gemd holding known objects' '
	start_gemd --no-debugfs &&
	{ "$POPULATE" "$GEMD_SOCK" >populate.out 2>&1 & } &&
	test_register_pid $! &&
	test_wait_for 10 grep -q "^ready" populate.out &&
	"$GEMDUMP" -D "$GEMD_SOCK" capture -o live.core >/dev/null &&
	stop_gemd
'

test_expect_success 'list --json: every object of the text listing, in bytes' '
	"$GEMDUMP" list --json live.core >list.json &&
	json_eval list.json "d[\"command\"]" >cmd && echo list >expect && test_cmp expect cmd &&
	"$GEMDUMP" list live.core | awk "NR > 1 { print \$1, \$2 }" >text-ids &&
	json_eval list.json "\"\\n\".join(\"%d %d\" % (o[\"id\"], o[\"size_bytes\"]) for o in d[\"objects\"])" >json-ids &&
	test_cmp text-ids json-ids &&
	json_eval list.json "all(o[\"gtt_offset\"] is None or isinstance(o[\"gtt_offset\"], int) for o in d[\"objects\"])" >ok &&
	echo True >expect && test_cmp expect ok
'

test_expect_success 'info --json: the device and the counts of the text' '
	"$GEMDUMP" info --json live.core >info.json &&
	"$GEMDUMP" info live.core >info.txt &&
	ap=$(sed -n "s/^device:.* aperture \\([0-9]*\\) bytes.*/\\1/p" info.txt) &&
	json_eval info.json "d[\"device\"][\"aperture_bytes\"]" >a && echo "$ap" >expect && test_cmp expect a &&
	n=$(sed -n "s/^objects: *\\([0-9]*\\) .*/\\1/p" info.txt) &&
	json_eval info.json "d[\"objects\"][\"count\"]" >a && echo "$n" >expect && test_cmp expect a &&
	json_eval info.json "d[\"reason\"], d[\"rings\"][0][\"name\"], d[\"hang\"]" >a &&
	echo "('\''live'\'', '\''render'\'', None)" >expect && test_cmp expect a
'

test_expect_success 'hang --json: HEAD wraps, ACTHD'"'"'s object, every fence register' '
	cp "$GOLDEN/errstate-fences-wraps.txt" . &&
	"$GEMDUMP" hang --json errstate-fences-wraps.txt >hang.json &&
	json_eval hang.json "d[\"ring\"][\"head_offset\"], d[\"ring\"][\"head_wraps\"], d[\"ring\"][\"ipehr\"]" >a &&
	echo "(16, 3, 1412431876)" >expect && test_cmp expect a &&
	json_eval hang.json "d[\"acthd_in\"][\"object\"], d[\"acthd_in\"][\"offset\"], d[\"acthd_in\"][\"batch\"]" >a &&
	echo "(2, 4, True)" >expect && test_cmp expect a &&
	json_eval hang.json "len(d[\"fence_registers\"]), d[\"fence_registers\"][1]" >a &&
	echo "(16, {'\''index'\'': 1, '\''value'\'': 46142321, '\''valid'\'': True, '\''tiling'\'': '\''y'\'', '\''pitch_bytes'\'': 65536, '\''start'\'': 46137344, '\''size_bytes'\'': 8388608})" >expect &&
	test_cmp expect a
'

test_expect_success '--human: sizes as 128K, error times as local time and age' '
	cp "$GOLDEN/errstate-fences-wraps.txt" . &&
	"$GEMDUMP" capture -q --from-error-state errstate-fences-wraps.txt -o es.core &&
	TZ=UTC "$GEMDUMP" --human info es.core >human &&
	grep -q "^objects:   4 (4\.5M), 4 bound (4\.5M), 2 with contents (132K)\$" human &&
	grep -E -q "^error:     Time: 1325376000 s 0 us = 2012-01-01 00:00:00 UTC \([0-9]+d[0-9]{2}h ago\)\$" human &&
	TZ=UTC "$GEMDUMP" --human hang errstate-fences-wraps.txt >hang-human &&
	grep -E -q "^  source    errstate-fences-wraps.txt, Time: 1325376000 s 0 us = 2012-01-01 00:00:00 UTC \([0-9]+d[0-9]{2}h ago\)\$" hang-human &&
	"$GEMDUMP" --human list es.core >list-human &&
	grep -E -q "^ +1 +400K active " list-human
'

test_expect_success 'not a terminal, or --bytes: raw bytes and the source'"'"'s time' '
	"$GEMDUMP" info es.core >raw &&
	grep -q "^objects:   4 (4739072 bytes), 4 bound (4739072 bytes), 2 with contents (135168 bytes)\$" raw &&
	grep -q "^error:     Time: 1325376000 s 0 us\$" raw &&
	"$GEMDUMP" --human --bytes info es.core >raw2 &&
	test_cmp raw raw2 &&
	"$GEMDUMP" -b list es.core >list-raw &&
	grep -E -q "^ +1 +409600 active " list-raw
'

test_expect_success '--json is an option of list, info and hang only' '
	test_expect_code 2 "$GEMDUMP" find --json live.core 0x0 2>err &&
	grep -q "^gemdump find: unknown option '\''--json'\''" err
'

test_done
