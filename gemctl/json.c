/* --json output (see json.h): the envelope of a verb's document. */
#include <stdio.h>

#include "json.h"
#include "session.h"
#include "util.h"

gj *gemctl_json_begin(struct gemctl *ctl)
{
	gj *doc;

	if (!ctl->json)
		return NULL;
	doc = gj_doc("gemctl", GEMCTL_SCHEMA_VERSION);
	gj_str(doc, "verb", ctl->verb ? ctl->verb : "");
	gj_str(doc, "device", gemctl_device(ctl));
	gj_uint(doc, "timestamp_ns", now_realtime_ns());
	return doc;
}

void gemctl_json_end(struct gemctl *ctl, gj *doc)
{
	(void)ctl;
	if (!doc)
		return;
	gj_write(stdout, doc);
	fflush(stdout);
	gj_free(doc);
}
