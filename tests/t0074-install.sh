#!/bin/sh
# make install puts what the docs point to where they say (README and the
# two FORMAT.md under docdir) and the programs `gemctl bench` runs under
# pkglibexecdir, where the installed gemctl finds them: in a DESTDIR
# install too, without GEMCTL_BENCH_DIR; gemkit-gdb.py under pkgdatadir.
# debian/gemkit.install ships each of them.
test_description='make install: docs, bench programs, the installed gemctl finds them'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

unset GEMCTL_BENCH_DIR GEMKIT_PRELOAD
BENCHES="gem-bench debugfs-bench preload-bench gemtop-bench metrics-bench cs-window-bench"

test_expect_success 'setup: make install DESTDIR' '
	start_gemd --no-debugfs &&
	make -s -C "$GEMKIT_BUILD_DIR" install DESTDIR="$TRASH/inst" >install.log 2>&1 &&
	bin=$(dirname "$(find "$TRASH/inst" -path "*/bin/gemctl")") &&
	test -x "$bin/gemctl" &&
	echo "$bin" >bindir &&
	dirname "$(find "$TRASH/inst" -name "libgem.so.*" | head -n 1)" >libdir
'

test_expect_success 'docdir holds the README and both FORMAT.md' '
	doc=$(dirname "$(find "$TRASH/inst" -path "*/doc/gemkit/README.md")") &&
	test_cmp "$GEMKIT_SRC_DIR/README.md" "$doc/README.md" &&
	test_cmp "$GEMKIT_SRC_DIR/debugfs/FORMAT.md" "$doc/debugfs/FORMAT.md" &&
	test_cmp "$GEMKIT_SRC_DIR/gemdump/FORMAT.md" "$doc/gemdump/FORMAT.md"
'

# The interposer carries libgem and common/ inside it: in the installed
# package a symbol it left to the build tree's libgem (rundir_trusted)
# made every program under gemctl run die at its first call.
test_expect_success 'the installed interposer needs nothing but the C library' '
	preload=$(find "$TRASH/inst" -name libgemkit-preload.so | head -n 1) &&
	test -n "$preload" &&
	nm -D --undefined-only "$preload" | grep -v "@" | grep -v "^ *w " >undefined;
	test_must_be_empty undefined
'

test_expect_success 'the bench programs are under libexec/gemkit' '
	for p in $BENCHES; do
		test -x "$(cat bindir)/../libexec/gemkit/$p" || return 1
	done
'

test_expect_success 'the installed gemctl runs them from there' '
	lx="$(cat bindir)/../libexec/gemkit" &&
	for p in $BENCHES; do
		printf "#!/bin/sh\necho \"fake %s ran\"\n" "$p" >"$lx/$p" || return 1
	done &&
	LD_LIBRARY_PATH=$(cat libdir) "$(cat bindir)/gemctl" -D "$GEMD_SOCK" \
		bench micro >micro 2>err &&
	grep "^debugfs-bench  *fake debugfs-bench ran" micro &&
	grep "^gemtop-bench  *fake gemtop-bench ran" micro &&
	grep "^preload-bench  *fake preload-bench ran" micro &&
	grep "^gem-bench  *fake gem-bench ran" micro &&
	grep "^metrics-bench  *fake metrics-bench ran" micro &&
	! grep "not run\|not built" micro
'

test_expect_success 'gemkit-gdb.py is in pkgdatadir, naming the installed gemdump' '
	gdbpy=$(find "$TRASH/inst" -path "*/share/gemkit/gemkit-gdb.py") &&
	test -n "$gdbpy" &&
	prefix=${gdbpy%/share/gemkit/gemkit-gdb.py} &&
	grep -Fx "INSTALLED_GEMDUMP = \"${prefix#$TRASH/inst}/bin/gemdump\"" "$gdbpy"
'

test_expect_success 'debian/gemkit.install ships them' '
	grep -Fx "usr/share/gemkit/gemkit-gdb.py" "$GEMKIT_SRC_DIR/debian/gemkit.install" &&
	grep -Fx "usr/libexec/gemkit/*" "$GEMKIT_SRC_DIR/debian/gemkit.install" &&
	grep -Fx "usr/share/doc/gemkit/README.md" "$GEMKIT_SRC_DIR/debian/gemkit.install" &&
	grep -Fx "usr/share/doc/gemkit/debugfs" "$GEMKIT_SRC_DIR/debian/gemkit.install" &&
	grep -Fx "usr/share/doc/gemkit/gemdump" "$GEMKIT_SRC_DIR/debian/gemkit.install"
'

test_expect_success 'cleanup' '
	stop_gemd
'

test_done
