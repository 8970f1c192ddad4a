#!/bin/sh
# The test harness runs every test program through this: a program still
# running after GEMKIT_TEST_TIMEOUT seconds (default 600) is a hang.  It
# is killed with everything it started in its process group, and says so
# as TAP ("Bail out!"), so that one hung test fails alone instead of
# stopping the suite until CI's budget runs out.
limit=${GEMKIT_TEST_TIMEOUT:-600}
timeout --kill-after=10 "$limit" "$@"
status=$?
case $status in
124|137)
	echo "Bail out! $1 was still running after $limit s (GEMKIT_TEST_TIMEOUT): killed as hung"
	;;
esac
exit $status
