/*
 * What a timed-out verb leaves behind: the ring and seqno state, read
 * through libgemdebugfs, on stderr (so a stuck rig's log says where the
 * GPU was).
 */
#include <stdio.h>
#include <string.h>

#include "gemdebugfs.h"
#include "session.h"

void gemctl_print_evidence(struct gemctl *ctl)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	struct gdfs_ring ring;
	struct gdfs *src;
	size_t i;
	int ret;

	if (!ctl->gdfs && gdfs_open_auto(ctl->device_arg, NULL, &ctl->gdfs) < 0) {
		ctl->gdfs = NULL;
		fputs("gemctl: (no debugfs: ring state unavailable)\n", stderr);
		return;
	}
	src = ctl->gdfs;
	memset(&ring, 0, sizeof(ring));
	ret = gdfs_read(src, "gemkit_ring", &buf);
	if (ret >= 0)
		ret = gdfs_parse_ring(buf.buf, buf.len, &ring, &err);
	if (ret < 0) {
		fprintf(stderr, "gemctl: (gemkit_ring: %s)\n",
			err.len ? err.buf : strerror(-ret));
		goto out;
	}
	fprintf(stderr,
		"gemctl: ring %s: head 0x%08x tail 0x%08x acthd 0x%08x ctl 0x%08x%s%s%s\n"
		"gemctl: seqno emitted %u completed %u waiting %u irq %u; %u outstanding\n",
		ring.name, ring.head, ring.tail, ring.acthd, ring.ctl,
		ring.idle ? " idle" : "", ring.stopped ? " stopped" : "",
		ring.wedged ? " WEDGED" : "", ring.emitted_seqno,
		ring.completed_seqno, ring.waiting_seqno, ring.irq_seqno,
		ring.outstanding);
	for (i = 0; i < ring.nrequests; i++)
		fprintf(stderr, "gemctl:   request seqno %u tail 0x%08x age %llums file %u pid %d\n",
			ring.requests[i].seqno, ring.requests[i].tail,
			(unsigned long long)(ring.requests[i].age_ns / 1000000),
			ring.requests[i].file, (int)ring.requests[i].pid);
	gdfs_ring_release(&ring);
out:
	strbuf_release(&buf);
	strbuf_release(&err);
}

/* The ring state, for wait --seqno/--idle and the seqno verb. */
int gemctl_read_ring(struct gemctl *ctl, struct gdfs_ring *ring)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	struct gdfs *src;
	int ret;

	memset(ring, 0, sizeof(*ring));
	ret = gemctl_debugfs(ctl, &src);
	if (ret)
		return ret;
	ret = gdfs_read(src, "gemkit_ring", &buf);
	if (ret >= 0)
		ret = gdfs_parse_ring(buf.buf, buf.len, ring, &err);
	if (ret < 0)
		ret = gemctl_error(ctl, GEMCTL_FAILED, "gemkit_ring (%s): %s",
				   gdfs_describe(src), err.len ? err.buf : strerror(-ret));
	strbuf_release(&buf);
	strbuf_release(&err);
	return ret;
}
