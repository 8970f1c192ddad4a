/* The tools' JSON writer on json-c (see gj.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "gj.h"

#define GJ_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

gj *gj_doc(const char *tool, int schema_version)
{
	gj *doc = json_object_new_object();

	gj_int(doc, "schema_version", schema_version);
	gj_str(doc, "tool", tool);
	gj_str(doc, "tool_version", PACKAGE_VERSION);
	return doc;
}

gj *gj_object(void)
{
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
		gj_set(obj, key, json_object_new_int64(v));
}

void gj_uint(gj *obj, const char *key, uint64_t v)
{
	if (obj)
		gj_set(obj, key, json_object_new_uint64(v));
}

void gj_str(gj *obj, const char *key, const char *v)
{
	if (obj)
		gj_set(obj, key, json_object_new_string(v));
}

void gj_bool(gj *obj, const char *key, bool v)
{
	if (obj)
		gj_set(obj, key, json_object_new_boolean(v));
}

void gj_null(gj *obj, const char *key)
{
	if (obj)
		gj_set(obj, key, NULL);
}

void gj_double(gj *obj, const char *key, double v)
{
	if (obj)
		gj_set(obj, key, json_object_new_double(v));
}

void gj_fixed(gj *obj, const char *key, double v, int decimals)
{
	if (obj)
		gj_set(obj, key, gj_new_fixed(v, decimals));
}

gj *gj_new_int(int64_t v)
{
	return json_object_new_int64(v);
}

gj *gj_new_uint(uint64_t v)
{
	return json_object_new_uint64(v);
}

gj *gj_new_str(const char *v)
{
	return json_object_new_string(v);
}

/* json-c prints a double its own way; the text given here is printed as
 * it is instead (json_object_new_double_s). */
gj *gj_new_fixed(double v, int decimals)
{
	char text[64];

	if (!isfinite(v))
		v = 0.0;
	snprintf(text, sizeof(text), "%.*f", decimals, v);
	return json_object_new_double_s(v, text);
}

const char *gj_text(gj *v)
{
	return json_object_to_json_string_ext(v, GJ_FLAGS);
}

void gj_addto(struct strbuf *sb, gj *v)
{
	size_t len;
	const char *s = json_object_to_json_string_length(v, GJ_FLAGS, &len);

	strbuf_add(sb, s, len);
}

int gj_write(FILE *f, gj *v)
{
	size_t len;
	const char *s = json_object_to_json_string_length(v, GJ_FLAGS, &len);

	if (fwrite(s, 1, len, f) != len || fputc('\n', f) == EOF)
		return -EIO;
	return 0;
}

void gj_free(gj *v)
{
	json_object_put(v);
}
