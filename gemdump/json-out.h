/* gemdump's --json documents (json-out.c): 0 or an exit code. */
#ifndef GEMKIT_GEMDUMP_JSON_OUT_H
#define GEMKIT_GEMDUMP_JSON_OUT_H

#include "core.h"

int gd_json_list(const struct gd_capture *c);
int gd_json_info(const struct gd_capture *c);
/* r: the ring as the error left it; acthd_in: the object ACTHD is in;
 * fault: a page-table error at fault_addr, in fault_in (NULL: none). */
int gd_json_hang(const struct gd_capture *c, const struct gd_rec_ring *r,
		 const struct gd_rec_object *acthd_in, bool fault, uint64_t fault_addr,
		 const struct gd_rec_object *fault_in);

#endif
