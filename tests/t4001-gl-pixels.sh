#!/bin/sh
# Mesa's own i915 driver draws on gemd: GLES2 scenes rendered through EGL
# on GBM under `gemctl run`, compared pixel by pixel with the same scenes
# rendered by llvmpipe, each within its stated tolerance.
test_description='GL scenes on gemd against llvmpipe'
. "$(dirname "$0")/test-lib.sh"

GEMCTL="$GEMKIT_BUILD_DIR/gemctl/gemctl"
SCENES="$GEMKIT_BUILD_DIR/tests/gl/gl-scenes"

if ! test -x "$SCENES"; then
	echo "1..0 # SKIP gl-scenes is not built (EGL, GLES2 or GBM missing)"
	exit 0
fi
if ! test -x "$GEMCTL"; then
	echo "1..0 # SKIP $GEMCTL is not built"
	exit 0
fi

# Mesa's drivers keep allocations until exit: in a sanitized build they
# are not gl-scenes' leaks (the last setting of an option wins).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

mkdir sw hw tiled &&
LIBGL_ALWAYS_SOFTWARE=1 "$SCENES" --sw --out sw >sw.log 2>&1
if ! grep -q '^renderer: llvmpipe' sw.log; then
	echo "1..0 # SKIP llvmpipe does not render here: $(head -1 sw.log)"
	exit 0
fi

# Mesa uploads textures and reads pixels back through GTT maps of tiled
# objects; until gemd's GTT maps show the detiled view, the linear run
# (I915_NO_TILING) is the one every scene must pass.
test_expect_success 'Mesa renders the scenes on gemd' '
	"$GEMCTL" run -- env I915_NO_TILING=1 "$SCENES" --out hw >hw.log 2>&1 &&
	grep "^renderer: i915 (chipset: 945G)" hw.log &&
	! grep -v "^renderer:" hw.log
'

for scene in $("$SCENES" --list | cut -d" " -f1); do
	if grep -q "^$scene: skipped" sw.log; then
		continue
	fi
	test_expect_success "$scene matches llvmpipe" "
		\"\$SCENES\" --compare hw sw $scene
	"
done

test_expect_success 'Mesa renders the scenes on gemd with tiling' '
	"$GEMCTL" run -- "$SCENES" --out tiled >tiled.log 2>&1 &&
	grep "^renderer: i915" tiled.log
'

# Surfaces one tile wide look the same tiled or linear; fbo-wide is drawn
# and sampled by the GPU only.  tex-wide goes through a GTT map.
test_expect_success 'tiled: scenes within one tile, GPU-only wide surfaces' '
	"$SCENES" --compare tiled sw $("$SCENES" --list | cut -d" " -f1 |
		grep -v -x tex-wide)
'

test_expect_success 'tiled: a texture uploaded through a GTT map' '
	"$SCENES" --compare tiled sw tex-wide
'

test_done
