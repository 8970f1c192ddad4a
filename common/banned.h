/* Functions we never want in gemkit: unbounded or error-prone. Use strbuf. */
#ifndef GEMKIT_BANNED_H
#define GEMKIT_BANNED_H

/*
 * The headers that declare them first: this file is -include'd before any
 * other, and with _FORTIFY_SOURCE (Debian's hardening flags) they define
 * inline wrappers named sprintf, strcpy, ... that the macros below would
 * otherwise rewrite.  Their include guards keep them from being read
 * again after the macros.
 */
#include <stdio.h>
#include <string.h>

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)

#endif
