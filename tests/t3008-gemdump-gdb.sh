#!/bin/sh
# gemkit-gdb.py: gem-objects, gem-bo and gem-decode in gdb on a capture
# (an error state's, made here), answering what gemdump answers; errors
# are gdb errors with gemdump's words.
test_description='gemkit-gdb.py: gem-objects, gem-bo, gem-decode'
. "$(dirname "$0")/test-lib.sh"

GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
SCRIPT="$GEMKIT_BUILD_DIR/gemdump/gemkit-gdb.py"
if ! test -x "$GEMDUMP"; then
	echo "1..0 # SKIP gemdump is not built"
	exit 0
fi
if ! command -v gdb >/dev/null; then
	echo "1..0 # SKIP gdb is not installed"
	exit 0
fi
if ! gdb -nx -batch -ex "python import gdb" >/dev/null 2>&1; then
	echo "1..0 # SKIP this gdb has no Python"
	exit 0
fi


# gemgdb CMD...: gdb in batch mode on es.core with the script sourced,
# then each CMD; gdb's own warnings about the register-less core dropped.
gemgdb () {
	n=$#
	set -- "$@" -ex "core-file es.core" -ex "source $SCRIPT"
	while test $n -gt 0; do
		set -- "$@" -ex "$1"
		shift
		n=$((n - 1))
	done
	timeout 120 gdb -nx -batch "$@" 2>&1 |
		grep -v "^warning: Couldn't find general-purpose registers\|^#0  <unavailable>"
}

test_expect_success 'setup: a capture of the sample error state' '
	"$GEMDUMP" capture -q --from-error-state \
		"$GEMKIT_SRC_DIR/tests/golden/gemdump/sample-error-state-gen3.txt" -o es.core
'

test_expect_success 'gem-objects lists what gemdump list lists' '
	"$GEMDUMP" list es.core >expect &&
	test $(wc -l <expect) = 5 &&
	gemgdb gem-objects >actual &&
	test_cmp expect actual
'

test_expect_success 'gem-bo ID: the object in hex, options passed on' '
	cat >expect <<-\EOF &&
	0x00a45000: 00000000 54300004 03f01000 00000000
	0x00a45010: 00640064 00100000 ffff0000 02000000
	EOF
	gemgdb "gem-bo 2 --length 32" >actual &&
	test_cmp expect actual
'

test_expect_success 'gem-decode ADDR: a gdb expression, decoded from there' '
	cat >expect <<-\EOF &&
	0x00a45008: HEAD 0x03f01000: MI_REPORT_HEAD
	0x00a4500c:      0x00000000: MI_NOOP
	0x00a45010:      0x00640064: MI_NOOP write NOPID reg, val=0x240064
	EOF
	gemgdb "set \$b = 0xa45000" "gem-decode \$b + 8 --length 12" >actual &&
	test_cmp expect actual &&
	gemgdb "gem-decode 0xa45000 --length 8" >actual &&
	grep -x "0x00a45000: HEAD 0x00000000: MI_NOOP" actual &&
	grep "^0x00a45004:      0x54300004: XY_COLOR_BLT" actual
'

test_expect_success 'errors are gdb errors in gemdump'"'"'s words' '
	gemgdb "gem-decode 0x10" "gem-bo 99" "gem-bo 1" "gem-bo" >actual &&
	cat >expect <<-EOF &&
	0x00000010: no object
	gemdump bo: no object '"'"'99'"'"' in $PWD/es.core
	gemdump bo: '"'"'$PWD/es.core'"'"': object 1 was captured without its contents
	usage: gem-bo ID [--offset SIZE] [--length SIZE]
	EOF
	test_cmp expect actual &&
	timeout 120 gdb -nx -batch -ex "source $SCRIPT" -ex gem-objects >actual 2>&1;
	echo "no capture loaded: core-file FILE first" >expect &&
	test_cmp expect actual
'

test_done
