/*
 * gj: the JSON writer the three tools share (gemctl --json, gemtop's
 * --format json and x export, gemdump decode --json), on json-c.
 *
 * One writer means one set of rules for every document:
 *   - compact text, no spaces, '/' not escaped (JSON_C_TO_STRING_PLAIN |
 *     JSON_C_TO_STRING_NOSLASHESCAPE), one document per line;
 *   - members in the order they were added (json-c keeps it);
 *   - every builder takes a NULL object or array and does nothing (it
 *     frees the value it was given), so a verb can build its document
 *     unconditionally and only --json makes one;
 *   - a document starts with gj_doc(): schema_version, tool, tool_version
 *     (reference/tool-ux-anchors.md 4.1);
 *   - a figure with a fixed number of decimals (gj_fixed) prints exactly
 *     as printf's "%.Nf" would, and a non-finite one as 0.
 * Values are json-c objects, so readers (gemctl bench --compare) use
 * json-c's own parser on the same type.
 */
#ifndef GEMKIT_TOOLS_GJ_H
#define GEMKIT_TOOLS_GJ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "strbuf.h"

typedef struct json_object gj;

/* A new document: {"schema_version":N,"tool":TOOL,"tool_version":...}. */
gj *gj_doc(const char *tool, int schema_version);
gj *gj_object(void);
gj *gj_array(void);

/* Members of an object (obj NULL: nothing, val is freed). */
void gj_set(gj *obj, const char *key, gj *val);
void gj_int(gj *obj, const char *key, int64_t v);
void gj_uint(gj *obj, const char *key, uint64_t v);
void gj_str(gj *obj, const char *key, const char *v);
void gj_bool(gj *obj, const char *key, bool v);
void gj_null(gj *obj, const char *key);
void gj_double(gj *obj, const char *key, double v);
void gj_fixed(gj *obj, const char *key, double v, int decimals);
/* Elements of an array (arr NULL: nothing, val is freed). */
void gj_push(gj *arr, gj *val);

gj *gj_new_int(int64_t v);
gj *gj_new_uint(uint64_t v);
gj *gj_new_str(const char *v);
gj *gj_new_fixed(double v, int decimals);

/* The document's text, owned by v (valid until v changes or is freed). */
const char *gj_text(gj *v);
/* Append the text to sb. */
void gj_addto(struct strbuf *sb, gj *v);
/* Print the text and a newline; 0 or -EIO. */
int gj_write(FILE *f, gj *v);
void gj_free(gj *v);

#endif
