/*
 * gltest: a GLES2 context on EGL for gemkit's pixel tests.  The same
 * program renders through Mesa's i915 driver on gemd (GBM on the
 * interposed /dev/dri/card0, under `gemctl run`) and through llvmpipe
 * (EGL's surfaceless platform with LIBGL_ALWAYS_SOFTWARE=1), so that the
 * two images can be compared pixel by pixel.
 */
#ifndef GEMKIT_GLTEST_H
#define GEMKIT_GLTEST_H

#include <stdbool.h>
#include <stdint.h>

#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

/* Open the display and make a GLES2 context current; sw: llvmpipe.
 * Returns 0, or -1 after printing why. */
int gl_init(bool sw);
void gl_fini(void);
const char *gl_renderer(void);
bool gl_has_extension(const char *name);

/* Compile and link; exits the program with a message on failure.  The
 * attributes are bound to locations 0 (pos), 1 (col) and 2 (tc). */
GLuint gl_program(const char *vs, const char *fs);

/* A framebuffer object of w x h with a colour renderbuffer of the given
 * internal format (or a texture when tex is set) and an optional depth
 * or depth-stencil renderbuffer (0: none). */
struct gl_fbo {
	GLuint fb, color, depth, tex;
	int w, h;
};
void gl_fbo_init(struct gl_fbo *f, int w, int h, GLenum color_format,
		 GLenum depth_format, bool tex);
void gl_fbo_fini(struct gl_fbo *f);

/* Draw n vertices of mode from client arrays (pos: 4 floats, col and tc:
 * 4 floats each, NULL when unused). */
void gl_draw(GLenum mode, int n, const float *pos, const float *col,
	     const float *tc);

/* The bound framebuffer's pixels as RGBA8, into a PAM file. */
int gl_dump(const char *path, int w, int h);

/* Images: read a PAM (RGBA8), compare two. */
struct gl_image {
	int w, h;
	uint8_t *px;		/* RGBA */
};
int gl_image_read(const char *path, struct gl_image *img);
void gl_image_free(struct gl_image *img);

#endif
