# Shared by run-tests and run-demo (sourced, not run): install what the
# build needs, then configure and build out of tree.
#
#	. scripts/setup.sh
#	gemkit_install_deps
#	gemkit_build _build [configure options...]
#
# Functions return non-zero on failure and never exit the caller's shell.

# What a fresh Debian 12 with only git lacks (json-c: the tools' JSON
# writer, which configure requires).  The second list is what the optional
# parts use (debugfs over FUSE, the curses, readline and libelf tools, and
# what their tests drive: tmux, bash-completion, zsh, readelf, clang's
# libFuzzer, and for the GL pixel tests EGL, GLES2, GBM and Mesa's drivers:
# i915 for gemd, llvmpipe to compare with; libmicrohttpd for gemd --metrics,
# and Prometheus and its Python client whose parsers check the exposition);
# configure builds them when they are there.
GEMKIT_PACKAGES="build-essential autoconf automake libtool pkg-config \
libdrm-dev libdrm-intel1 intel-gpu-tools valgrind libjson-c-dev zlib1g-dev"
GEMKIT_OPTIONAL_PACKAGES="libfuse3-dev fuse3 libncurses-dev libreadline-dev \
libelf-dev elfutils tmux bash-completion zsh clang \
libclang-rt-dev libegl-dev libgles-dev libgbm-dev libgl1-mesa-dri libegl-mesa0 \
libmicrohttpd-dev prometheus python3-prometheus-client strace"

GEMKIT_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

gemkit_say () {
	printf '%s\n' "${GEMKIT_SAY_PREFIX:-gemkit}: $*" >&2
}

# Packages of the given list that are not installed.
gemkit_missing_packages () {
	local p missing=
	command -v dpkg-query >/dev/null 2>&1 || return 0
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing="$missing $p"
	done
	printf '%s\n' "${missing# }"
}

# Install whatever is missing, as root with apt-get; otherwise say what
# is missing and carry on (the build will say the rest).
gemkit_install_deps () {
	local missing optional
	# shellcheck disable=SC2086
	missing=$(gemkit_missing_packages $GEMKIT_PACKAGES)
	# shellcheck disable=SC2086
	optional=$(gemkit_missing_packages $GEMKIT_OPTIONAL_PACKAGES)
	if test -z "$missing" && test -z "$optional"; then
		return 0
	fi
	if test "$(id -u)" != 0 || ! command -v apt-get >/dev/null 2>&1; then
		test -n "$missing" &&
			gemkit_say "missing packages (install them as root): $missing"
		return 0
	fi
	export DEBIAN_FRONTEND=noninteractive
	gemkit_say "installing:${missing:+ $missing}${optional:+ $optional}"
	apt-get update -q || return 1
	if test -n "$missing"; then
		# shellcheck disable=SC2086
		apt-get install -y -q --no-install-recommends $missing || return 1
	fi
	if test -n "$optional"; then
		# shellcheck disable=SC2086
		apt-get install -y -q --no-install-recommends $optional ||
			gemkit_say "optional packages not installed: $optional"
	fi
	return 0
}

# gemkit_build DIR [configure options...]: autogen, a fresh DIR (a
# directory name at the top of the source tree), configure there (out of
# tree) and make -j2.  Output goes to DIR/configure.out and DIR/make.out.
gemkit_build () {
	local dir=$1
	shift
	(
		cd "$GEMKIT_SRC" || exit 1
		if test -f config.status; then
			gemkit_say "the source tree is configured in place; run" \
				"'make distclean' there first (builds go in $dir)"
			exit 1
		fi
		gemkit_say "autogen"
		./autogen.sh >"$GEMKIT_SRC/.autogen.log" 2>&1 || {
			cat "$GEMKIT_SRC/.autogen.log" >&2
			exit 1
		}
		rm -f "$GEMKIT_SRC/.autogen.log"
		rm -rf "$dir" && mkdir "$dir" && cd "$dir" || exit 1
		gemkit_say "configure $* (in $dir)"
		../configure "$@" >configure.out 2>&1 || {
			tail -n 40 configure.out >&2
			exit 1
		}
		gemkit_say "make -j2"
		make -j2 >make.out 2>&1 || {
			tail -n 60 make.out >&2
			exit 1
		}
	)
}

# True if clang can link a libFuzzer target here.
gemkit_have_libfuzzer () {
	local dir ret
	command -v clang >/dev/null 2>&1 || return 1
	dir=$(mktemp -d) || return 1
	printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ return d && n == 7; }\n' >"$dir/f.c"
	clang -fsanitize=fuzzer "$dir/f.c" -o "$dir/f" >/dev/null 2>&1
	ret=$?
	rm -rf "$dir"
	return $ret
}

# True if DIR holds a build whose programs exist (run-demo's "if needed").
gemkit_built () {
	local dir=$1 p
	shift
	test -f "$GEMKIT_SRC/$dir/Makefile" || return 1
	for p in "$@"; do
		test -x "$GEMKIT_SRC/$dir/$p" || return 1
	done
}
