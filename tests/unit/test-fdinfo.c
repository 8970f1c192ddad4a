/*
 * The DRM usage-stats parser (gdfs_fdinfo_line, gdfs_parse_fdinfo) on a
 * kernel's /proc/<pid>/fdinfo text and on gemd's gemkit_fdinfo blocks:
 * keys, values and units exactly as Documentation/gpu/drm-usage-stats.rst
 * writes them, unknown keys ignored, malformed lines refused.
 */
#include <errno.h>
#include <string.h>

#include "gemdebugfs.h"
#include "gemtest.h"
#include "strbuf.h"

/* As i915 on Linux 6.x prints it (pos/flags/... from the VFS first). */
static const char kernel_txt[] =
	"pos:\t0\n"
	"flags:\t02100002\n"
	"mnt_id:\t26\n"
	"ino:\t1081\n"
	"drm-driver:\ti915\n"
	"drm-pdev:\t0000:00:02.0\n"
	"drm-client-id:\t19\n"
	"drm-total-system0:\t4 MiB\n"
	"drm-engine-render:\t25662044495 ns\n"
	"drm-engine-copy:\t0 ns\n"
	"drm-engine-capacity-video:\t2\n";

/* Two of gemd's gemkit_fdinfo blocks (a figure of each unit). */
static const char gemd_txt[] =
	"drm-driver:\ti915\n"
	"drm-pdev:\t0000:00:02.0\n"
	"drm-client-id:\t3\n"
	"drm-engine-render:\t185475 ns\n"
	"drm-total-system:\t1028 KiB\n"
	"drm-resident-system:\t1028 KiB\n"
	"drm-purgeable-system:\t4 KiB\n"
	"drm-active-system:\t0 KiB\n"
	"gemkit-cpu-ns:\t443476\n"
	"gemkit-cpu-mm-ns:\t183532\n"
	"gemkit-execbuffers:\t2\n"
	"gemkit-ioctl-i915-gem-create:\t4\n"
	"\n"
	"drm-driver:\ti915\n"
	"drm-client-id:\t4\n"
	"drm-total-system:\t2 MiB\n"
	"gemkit-waits:\t7\n"
	"\n";

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;

	gemtest_init(argc, argv);

	gemtest_subtest("line-grammar") {
		struct gdfs_fdinfo_kv kv;
		uint64_t v;

		gt_assert_eq(gdfs_fdinfo_line("drm-engine-render:\t25 ns\n", 24, &kv), 0);
		gt_assert(gdfs_fdinfo_key_is(&kv, "drm-engine-render"));
		gt_assert(kv.is_num);
		gt_assert_eq_u64(kv.num, 25);
		gt_assert_eq(kv.unitlen, 2);
		gt_assert(!memcmp(kv.unit, "ns", 2));
		gt_assert_eq(gdfs_fdinfo_value(&kv, &v), 0);
		gt_assert_eq_u64(v, 25);

		/* whitespace after the colon is skipped, units scale */
		gt_assert_eq(gdfs_fdinfo_line("drm-total-system:   3 MiB", 25, &kv), 0);
		gt_assert_eq(gdfs_fdinfo_value(&kv, &v), 0);
		gt_assert_eq_u64(v, 3ull << 20);
		gt_assert_eq(gdfs_fdinfo_line("drm-total-system: 5 KiB", 23, &kv), 0);
		gt_assert_eq(gdfs_fdinfo_value(&kv, &v), 0);
		gt_assert_eq_u64(v, 5120);
		/* no unit: the number itself */
		gt_assert_eq(gdfs_fdinfo_line("drm-total-system: 4096", 22, &kv), 0);
		gt_assert_eq(gdfs_fdinfo_value(&kv, &v), 0);
		gt_assert_eq_u64(v, 4096);

		/* strings: drm-pdev's colons belong to the value */
		gt_assert_eq(gdfs_fdinfo_line("drm-pdev:\t0000:00:02.0", 22, &kv), 0);
		gt_assert(gdfs_fdinfo_key_is(&kv, "drm-pdev"));
		gt_assert(!kv.is_num);
		gt_assert_eq(kv.valuelen, 12);
		gt_assert(!memcmp(kv.value, "0000:00:02.0", 12));
		gt_assert_eq(gdfs_fdinfo_value(&kv, &v), -EINVAL);
		gt_assert_eq(gdfs_fdinfo_line("drm-driver: i915", 16, &kv), 0);
		gt_assert(!kv.is_num);
		/* a unit the document does not name, or two words */
		gt_assert_eq(gdfs_fdinfo_line("drm-x: 1 parsecs", 16, &kv), 0);
		gt_assert_eq(gdfs_fdinfo_value(&kv, &v), -EINVAL);
		gt_assert_eq(gdfs_fdinfo_line("drm-x: 1 a b", 12, &kv), 0);
		gt_assert(!kv.is_num);

		/* not key: value lines */
		gt_assert_eq(gdfs_fdinfo_line("no colon here", 13, &kv), -EINVAL);
		gt_assert_eq(gdfs_fdinfo_line(": 1", 3, &kv), -EINVAL);
		gt_assert_eq(gdfs_fdinfo_line("drm engine: 1", 13, &kv), -EINVAL);
	}

	gemtest_subtest("kernel-fdinfo") {
		struct gdfs_clients c;

		gt_assert_eq(gdfs_parse_fdinfo(kernel_txt, strlen(kernel_txt), &c, &err), 0);
		gt_assert_eq(c.n, 1);
		gt_assert_eq(c.v[0].file, 19);
		gt_assert_eq_u64(c.v[0].engine_render_ns, 25662044495ull);
		/* drm-total-system0 is another region's: not system's */
		gt_assert_eq_u64(c.v[0].total_bytes, 0);
		gdfs_clients_release(&c);
	}

	gemtest_subtest("gemd-blocks") {
		struct gdfs_clients c;

		gt_assert_eq(gdfs_parse_fdinfo(gemd_txt, strlen(gemd_txt), &c, &err), 0);
		gt_assert_eq(c.n, 2);
		gt_assert_eq(c.v[0].file, 3);
		gt_assert_eq_u64(c.v[0].engine_render_ns, 185475);
		gt_assert_eq_u64(c.v[0].total_bytes, 1028 * 1024);
		gt_assert_eq_u64(c.v[0].resident_bytes, 1028 * 1024);
		gt_assert_eq_u64(c.v[0].purgeable_bytes, 4096);
		gt_assert_eq_u64(c.v[0].active_bytes, 0);
		gt_assert_eq_u64(c.v[0].cpu_ns, 443476);
		gt_assert_eq_u64(c.v[0].cpu_mm_ns, 183532);
		gt_assert_eq_u64(c.v[0].execbuffers, 2);
		gt_assert_eq(c.v[1].file, 4);
		gt_assert_eq_u64(c.v[1].total_bytes, 2ull << 20);
		gt_assert_eq_u64(c.v[1].waits, 7);
		gt_assert_eq_u64(c.v[1].cpu_ns, 0);
		gdfs_clients_release(&c);
	}

	gemtest_subtest("bad-value") {
		static const char bad[] = "drm-driver:\ti915\ndrm-engine-render:\tlots ns\n";
		struct gdfs_clients c;

		strbuf_reset(&err);
		gt_assert_eq(gdfs_parse_fdinfo(bad, strlen(bad), &c, &err), -EINVAL);
		gt_assert(strstr(err.buf, "line 2: drm-engine-render") != NULL);
		gt_assert_eq(c.n, 0);
	}

	strbuf_release(&err);
	return gemtest_exit();
}
