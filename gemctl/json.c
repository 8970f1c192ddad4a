/* --json output through json-c (see json.h). */
#include <stdio.h>
#include <stdlib.h>

#include "json.h"
#include "session.h"
#include "util.h"

#ifdef HAVE_JSONC

bool gemctl_json_available(void)
{
	return true;
}

gj *gemctl_json_begin(struct gemctl *ctl)
{
	gj *doc;

	if (!ctl->json)
		return NULL;
	doc = json_object_new_object();
	if (!doc)
		return NULL;
	gj_int(doc, "schema_version", GEMCTL_SCHEMA_VERSION);
	gj_str(doc, "tool", "gemctl");
	gj_str(doc, "tool_version", PACKAGE_VERSION);
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
	puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
	json_object_put(doc);
}

gj *gj_object(gj *parent)
{
	(void)parent;
	return json_object_new_object();
}

gj *gj_array(void)
{
	return json_object_new_array();
}

void gj_set(gj *obj, const char *key, gj *val)
{
	if (obj)
		json_object_object_add(obj, key, val);
	else
		json_object_put(val);
}

void gj_push(gj *arr, gj *val)
{
	if (arr)
		json_object_array_add(arr, val);
	else
		json_object_put(val);
}

void gj_int(gj *obj, const char *key, int64_t v)
{
	if (obj)
		json_object_object_add(obj, key, json_object_new_int64(v));
}

void gj_uint(gj *obj, const char *key, uint64_t v)
{
	if (obj)
		json_object_object_add(obj, key, json_object_new_uint64(v));
}

void gj_str(gj *obj, const char *key, const char *v)
{
	if (obj)
		json_object_object_add(obj, key, json_object_new_string(v));
}

void gj_bool(gj *obj, const char *key, bool v)
{
	if (obj)
		json_object_object_add(obj, key, json_object_new_boolean(v));
}

void gj_null(gj *obj, const char *key)
{
	if (obj)
		json_object_object_add(obj, key, NULL);
}

gj *gj_new_int(int64_t v)
{
	return json_object_new_int64(v);
}

gj *gj_new_str(const char *v)
{
	return json_object_new_string(v);
}

void gj_free(gj *v)
{
	json_object_put(v);
}

#else /* !HAVE_JSONC */

bool gemctl_json_available(void) { return false; }
gj *gemctl_json_begin(struct gemctl *ctl) { (void)ctl; return NULL; }
void gemctl_json_end(struct gemctl *ctl, gj *doc) { (void)ctl; (void)doc; }
gj *gj_object(gj *p) { (void)p; return NULL; }
gj *gj_array(void) { return NULL; }
void gj_set(gj *o, const char *k, gj *v) { (void)o; (void)k; (void)v; }
void gj_push(gj *a, gj *v) { (void)a; (void)v; }
void gj_int(gj *o, const char *k, int64_t v) { (void)o; (void)k; (void)v; }
void gj_uint(gj *o, const char *k, uint64_t v) { (void)o; (void)k; (void)v; }
void gj_str(gj *o, const char *k, const char *v) { (void)o; (void)k; (void)v; }
void gj_bool(gj *o, const char *k, bool v) { (void)o; (void)k; (void)v; }
void gj_null(gj *o, const char *k) { (void)o; (void)k; }
gj *gj_new_int(int64_t v) { (void)v; return NULL; }
gj *gj_new_str(const char *v) { (void)v; return NULL; }
void gj_free(gj *v) { (void)v; }

#endif
