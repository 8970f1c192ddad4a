#!/bin/sh
# The include layering (scripts/check-layering): the tree keeps it, and the
# check catches the includes it exists for, naming the file and the line.
test_description='scripts/check-layering'
. "$(dirname "$0")/test-lib.sh"

CHECK="$GEMKIT_SRC_DIR/scripts/check-layering"

# The directories the rules look at, copied so that a test may plant an
# include in them.
copy_tree () {
	mkdir "$1" &&
	for d in common lib driver debugfs gemctl gemtop gemdump bench; do
		cp -R "$GEMKIT_SRC_DIR/$d" "$1/" || return 1
	done
}

# Insert line $3 into file $2 of tree $1 after its first #include, and
# print where it went as FILE:LINE.
plant () {
	line=$(grep -n "^#include" "$1/$2" | head -n 1 | cut -d: -f1) &&
	test -n "$line" &&
	sed -i "${line}a\\
$3" "$1/$2" &&
	echo "$2:$((line + 1))"
}

test_expect_success 'the tree keeps the layering' '
	"$CHECK" "$GEMKIT_SRC_DIR" >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err
'

test_expect_success 'a tree that keeps the rules passes' '
	mkdir -p small/gemctl small/driver/gem small/tests/lib &&
	printf "#include \"gemdebugfs.h\"\n#include \"libgem.h\"\n" >small/gemctl/ok.c &&
	printf "#include \"gem_priv.h\"\n" >small/driver/gem/ok.c &&
	printf "#include \"gemtest-batch.h\"\n#include \"protocol.h\"\n" >small/tests/lib/ok.c &&
	"$CHECK" small >out &&
	test_must_be_empty out
'

test_expect_success 'gemctl including the test library fails, naming file and line' '
	copy_tree copy &&
	where=$(plant copy gemctl/cmd-info.c "#include \"gemtest-batch.h\"") &&
	test_expect_code 1 "$CHECK" copy >out &&
	grep -Fx "$where: only tests/ may include what is under tests/" out
'

test_expect_success 'any other header under tests/ fails too, by name or by path' '
	rm -rf copy && copy_tree copy &&
	mkdir -p copy/tests/gl && cp "$GEMKIT_SRC_DIR/tests/gl/gltest.h" copy/tests/gl/ &&
	where=$(plant copy bench/gem-demo.c "#include \"gltest.h\"") &&
	test_expect_code 1 "$CHECK" copy >out &&
	grep -Fx "$where: only tests/ may include what is under tests/" out &&
	rm -rf copy && copy_tree copy &&
	where=$(plant copy gemctl/cmd-info.c "#include \"../tests/gl/gltest.h\"") &&
	test_expect_code 1 "$CHECK" copy >out &&
	grep -Fx "$where: only tests/ may include what is under tests/" out
'

test_expect_success 'the gem core including protocol.h fails, naming file and line' '
	rm -rf copy && copy_tree copy &&
	where=$(plant copy driver/gem/object.c "#include \"protocol.h\"") &&
	test_expect_code 1 "$CHECK" copy >out &&
	grep -Fx "$where: the gem core and the GPU model know nothing of the wire protocol or the client" out &&
	where=$(plant copy driver/gem/gem.h "#  include <../../lib/proto/protocol.h>") &&
	test_expect_code 1 "$CHECK" copy >out &&
	grep -Fx "$where: the gem core and the GPU model know nothing of the wire protocol or the client" out
'

test_expect_success 'a tool sending raw messages fails' '
	mkdir -p tool/gemtop &&
	printf "/* x */\n#include <stdio.h>\n#include \"wire.h\"\n" >tool/gemtop/x.c &&
	test_expect_code 1 "$CHECK" tool >out &&
	echo "gemtop/x.c:3: the tools talk to gemd through libgem and libgemdebugfs, not raw messages" >expect &&
	test_cmp expect out
'

test_expect_success 'curses outside the front end, or not through provide-curses.h, fails' '
	rm -rf copy && copy_tree copy &&
	ui=$(plant copy gemtop/ui.c "#include <curses.h>") &&
	batch=$(plant copy gemtop/batch.c "#include \"view.h\"") &&
	test_expect_code 1 "$CHECK" copy >out &&
	grep -Fx "$ui: gemtop'"'"'s front end includes curses through provide-curses.h" out &&
	grep -Fx "$batch: only gemtop'"'"'s front end (view.h) may use curses" out &&
	test $(wc -l <out) = 2
'

test_done
