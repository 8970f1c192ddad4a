/*
 * gl-scenes: small GLES2 scenes rendered to framebuffer objects and saved
 * as PAM images, one per scene, so that the same scene drawn by Mesa's
 * i915 driver on gemd and by llvmpipe can be compared pixel by pixel.
 *
 *	gl-scenes [--sw] --out DIR [SCENE...]	render (all scenes by default)
 *	gl-scenes --list			the scenes and their tolerances
 *	gl-scenes --compare A B [SCENE...]	compare the images of two runs
 *
 * Each scene states the largest difference per channel it accepts, in
 * 8-bit units: 1 where both drivers compute the same thing, 2 where their
 * texture filtering differs in its last bit (bilinear weights), and one
 * step of the format's own precision for the formats below 8 bits.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltest.h"

#define W 64
#define H 64

static const char vs_basic[] =
	"attribute vec4 pos;\n"
	"attribute vec4 col;\n"
	"attribute vec4 tc;\n"
	"varying vec4 vcol;\n"
	"varying vec4 vtc;\n"
	"uniform float psize;\n"
	"void main() {\n"
	"	gl_Position = pos;\n"
	"	vcol = col;\n"
	"	vtc = tc;\n"
	"	gl_PointSize = psize;\n"
	"}\n";

static const char fs_color[] =
	"precision mediump float;\n"
	"varying vec4 vcol;\n"
	"void main() { gl_FragColor = vcol; }\n";

static const char fs_uniform[] =
	"precision mediump float;\n"
	"uniform vec4 color;\n"
	"void main() { gl_FragColor = color; }\n";

static const char fs_tex[] =
	"precision mediump float;\n"
	"uniform sampler2D s;\n"
	"varying vec4 vtc;\n"
	"void main() { gl_FragColor = texture2D(s, vtc.xy); }\n";

/* Pixel (x, y) of the W x H framebuffer in clip coordinates; whole
 * numbers are pixel corners, .5 pixel centres. */
static float nx(float x)
{
	return x / (W / 2.0f) - 1.0f;
}

static float ny(float y)
{
	return y / (H / 2.0f) - 1.0f;
}

/* Vertices from pixel coordinates: n pairs into pos (z 0, w 1). */
static void px_pos(float *pos, const float *xy, int n, float z)
{
	int i;

	for (i = 0; i < n; i++) {
		pos[4 * i] = nx(xy[2 * i]);
		pos[4 * i + 1] = ny(xy[2 * i + 1]);
		pos[4 * i + 2] = z;
		pos[4 * i + 3] = 1.0f;
	}
}

static void set_color(GLuint prog, float r, float g, float b, float a)
{
	glUniform4f(glGetUniformLocation(prog, "color"), r, g, b, a);
}

/* A rectangle [x1, x2) x [y1, y2) in pixels, as a triangle strip. */
static void px_rect(float x1, float y1, float x2, float y2, float z,
		    const float *col, const float *tc)
{
	float xy[8] = { x1, y1, x2, y1, x1, y2, x2, y2 }, pos[16];

	px_pos(pos, xy, 4, z);
	gl_draw(GL_TRIANGLE_STRIP, 4, pos, col, tc);
}

static const float quad_tc[16] = {
	0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1,
};

/* A scene's program, and the framebuffer cleared to a colour. */
static GLuint begin(const char *fs, float r, float g, float b, float a)
{
	GLuint p = gl_program(vs_basic, fs);

	glClearColor(r, g, b, a);
	glClear(GL_COLOR_BUFFER_BIT);
	return p;
}

/* ---- clears and primitives ------------------------------------------------- */

static void scene_clear(void)
{
	static const float c[4][4] = {
		{ 1, 0, 0, 1 }, { 0, 0.5f, 0, 1 }, { 0.25f, 0.5f, 0.75f, 1 },
		{ 0.2f, 0.4f, 0.6f, 0.8f },
	};
	int i;

	glClearColor(0.1f, 0.2f, 0.3f, 0.4f);
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_SCISSOR_TEST);
	for (i = 0; i < 4; i++) {
		glScissor(3 + 15 * i, 5 + 13 * i, 20, 17);
		glClearColor(c[i][0], c[i][1], c[i][2], c[i][3]);
		glClear(GL_COLOR_BUFFER_BIT);
	}
	glDisable(GL_SCISSOR_TEST);
}

static const float tris_xy[] = {
	2.5f, 3.25f, 30, 4, 10, 28.75f,		/* counter-clockwise and */
	30, 4, 40.5f, 30, 10, 28.75f,		/* sharing an edge */
	63, 0.5f, 45.25f, 20, 60, 40,
	5, 60, 20.5f, 34.125f, 33, 62,		/* clockwise */
	35, 36, 62, 44, 40, 63.5f,
	31.2f, 31.3f, 33.7f, 32.1f, 32.2f, 33.9f,	/* tiny */
};

static const float tris_col[] = {
	1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1,
	0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 1, 1,
	1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1,
	0.2f, 0.4f, 0.6f, 0.8f, 1, 0.5f, 0, 0.5f, 0, 0, 0, 1,
	0.9f, 0.1f, 0.5f, 1, 0.3f, 0.7f, 0.2f, 1, 0.5f, 0.5f, 0.5f, 0.25f,
	1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1,
};

static void scene_triangles_flat(void)
{
	GLuint p = gl_program(vs_basic, fs_uniform);
	float pos[18 * 4];
	int i;

	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	px_pos(pos, tris_xy, 18, 0);
	for (i = 0; i < 6; i++) {
		set_color(p, tris_col[12 * i], tris_col[12 * i + 1],
			  tris_col[12 * i + 2], tris_col[12 * i + 3]);
		gl_draw(GL_TRIANGLES, 3, pos + 12 * i, NULL, NULL);
	}
}

static void scene_triangles_smooth(void)
{
	float pos[18 * 4];

	begin(fs_color, 0, 0, 0, 1);
	px_pos(pos, tris_xy, 18, 0);
	gl_draw(GL_TRIANGLES, 18, pos, tris_col, NULL);
}

static void scene_strip_fan(void)
{
	static const float strip[] = {
		2, 2, 6, 30, 14, 3, 20, 31.5f, 29.5f, 1, 31, 29,
	};
	static const float fan[] = {
		48, 48, 62, 48, 60, 56, 52, 62, 42, 61, 34, 52, 36, 40, 48, 34,
		62, 48,
	};
	float pos[9 * 4];

	begin(fs_color, 0, 0, 0, 1);
	px_pos(pos, strip, 6, 0);
	gl_draw(GL_TRIANGLE_STRIP, 6, pos, tris_col, NULL);
	px_pos(pos, fan, 9, 0);
	gl_draw(GL_TRIANGLE_FAN, 9, pos, tris_col + 12, NULL);
}

/* Lines with their ends on pixel centres: the first pixel drawn, the last
 * not, as GL's diamond-exit rule says.  (llvmpipe leaves out the first
 * pixel of a y-major line drawn towards smaller y from a pixel centre,
 * an artefact of its diamond test; no line here does that.) */
static void scene_lines(void)
{
	static const float lines[] = {
		4.5f, 4.5f, 40.5f, 4.5f,	/* horizontal, both ways */
		40.5f, 8.5f, 4.5f, 8.5f,
		50.5f, 2.5f, 50.5f, 30.5f,	/* vertical */
		5.5f, 12.5f, 25.5f, 32.5f,	/* diagonals */
		60.5f, 10.5f, 40.5f, 30.5f,
		5.5f, 40.5f, 45.5f, 50.5f,	/* x-major, slope 1/4 */
	};
	static const float strip[] = {
		10.5f, 54.5f, 30.5f, 54.5f, 30.5f, 60.5f, 50.5f, 58.5f,
	};
	float pos[12 * 4], col[12 * 4];
	int i;

	for (i = 0; i < 12 * 4; i++)
		col[i] = tris_col[i % (sizeof(tris_col) / sizeof(float))];
	begin(fs_color, 0, 0, 0, 1);
	px_pos(pos, lines, 12, 0);
	gl_draw(GL_LINES, 12, pos, col, NULL);
	px_pos(pos, strip, 4, 0);
	gl_draw(GL_LINE_STRIP, 4, pos, col, NULL);
}

static void scene_points(void)
{
	static const float pts[] = {
		3.5f, 3.5f, 10.5f, 5.5f, 20.5f, 20.5f, 40.5f, 10.5f, 60.5f, 60.5f,
	};
	GLuint p;
	float pos[5 * 4];

	p = begin(fs_color, 0, 0, 0, 1);
	glUniform1f(glGetUniformLocation(p, "psize"), 1.0f);
	px_pos(pos, pts, 5, 0);
	gl_draw(GL_POINTS, 5, pos, tris_col, NULL);
	glUniform1f(glGetUniformLocation(p, "psize"), 4.0f);
	px_pos(pos, pts, 5, 0);
	for (int i = 0; i < 5; i++)
		pos[4 * i + 1] = ny(pts[2 * i + 1] + 20.0f);
	gl_draw(GL_POINTS, 5, pos, tris_col + 20, NULL);
}

/* Overlapping triangles at separate depths, and one sloping through a
 * range of depths behind the others. */
static void depth_scene(void)
{
	static const float xy[] = {
		4, 4, 60, 10, 20, 58,
		10, 30, 62, 20, 50, 62,
		0, 0, 64, 0, 0, 64,
	};
	static const float z[] = { 0.1f, 0.1f, 0.1f, -0.3f, -0.3f, -0.3f,
				   0.5f, 0.9f, 0.2f };
	float pos[9 * 4];
	int i;

	gl_program(vs_basic, fs_color);
	glClearColor(0, 0, 0, 1);
	glClearDepthf(1.0f);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_LESS);
	px_pos(pos, xy, 9, 0);
	for (i = 0; i < 9; i++)
		pos[4 * i + 2] = z[i];
	gl_draw(GL_TRIANGLES, 9, pos, tris_col, NULL);
	glDisable(GL_DEPTH_TEST);
}

static void scene_stencil(void)
{
	GLuint p = gl_program(vs_basic, fs_uniform);

	glClearColor(0, 0, 0, 1);
	glClearStencil(0);
	glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	glEnable(GL_STENCIL_TEST);
	glStencilFunc(GL_ALWAYS, 3, 0xff);
	glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
	set_color(p, 1, 0, 0, 1);
	px_rect(8, 8, 40, 40, 0, NULL, NULL);
	glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
	set_color(p, 0, 1, 0, 1);
	px_rect(24, 24, 56, 56, 0, NULL, NULL);
	glStencilFunc(GL_EQUAL, 4, 0xff);
	glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
	set_color(p, 0, 0, 1, 1);
	px_rect(0, 0, 64, 64, 0, NULL, NULL);
	glStencilFunc(GL_NOTEQUAL, 0, 0xff);
	set_color(p, 1, 1, 1, 0.5f);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	px_rect(0, 44, 64, 64, 0, NULL, NULL);
	glDisable(GL_BLEND);
	glDisable(GL_STENCIL_TEST);
}

/* Two-sided stencil: front and back faces of each winding write their
 * own reference, then a pass per reference shows where each landed. */
static void scene_stencil_two_sided(void)
{
	static const float xy[] = {
		2, 2, 30, 2, 2, 30,		/* counter-clockwise (GL) */
		34, 2, 34, 30, 62, 2,		/* clockwise */
	};
	float pos[6 * 4];
	GLuint p = gl_program(vs_basic, fs_uniform);
	int pass;

	glClearColor(0, 0, 0, 1);
	glClearStencil(0);
	glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	glEnable(GL_STENCIL_TEST);
	for (pass = 0; pass < 2; pass++) {
		glFrontFace(pass ? GL_CW : GL_CCW);
		glStencilFuncSeparate(GL_FRONT, GL_ALWAYS, 1 + 4 * pass, 0xff);
		glStencilFuncSeparate(GL_BACK, GL_ALWAYS, 2 + 4 * pass, 0xff);
		glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
		glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
		px_pos(pos, xy, 6, 0);
		for (int k = 0; k < 6; k++)
			pos[4 * k + 1] = ny(xy[2 * k + 1] + 32 * pass);
		gl_draw(GL_TRIANGLES, 6, pos, NULL, NULL);
	}
	glFrontFace(GL_CCW);
	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
	for (pass = 1; pass <= 6; pass++) {
		glStencilFunc(GL_EQUAL, pass, 0xff);
		set_color(p, pass & 1 ? 1.0f : 0.0f, pass & 2 ? 1.0f : 0.0f,
			  pass & 4 ? 1.0f : 0.0f, 1);
		px_rect(0, 0, 64, 64, 0, NULL, NULL);
	}
	glDisable(GL_STENCIL_TEST);
}

/* ---- blending, masks, culling ---------------------------------------------- */

static void blend_background(void)
{
	static const float col[] = {
		1, 0, 0, 1, 0, 1, 0, 0.5f, 0, 0, 1, 0.25f, 1, 1, 1, 0.75f,
	};

	begin(fs_color, 0, 0, 0, 0);
	px_rect(0, 0, 64, 64, 0, col, NULL);
}

static void blend_overlay(void)
{
	static const float col[] = {
		0.2f, 0.9f, 0.4f, 0.1f, 0.8f, 0.3f, 0.6f, 0.9f,
		0.5f, 0.5f, 0.0f, 0.6f, 0.1f, 0.2f, 0.9f, 0.4f,
	};

	glEnable(GL_BLEND);
	px_rect(4, 4, 60, 60, 0, col, NULL);
	glDisable(GL_BLEND);
}

static void scene_blend_alpha(void)
{
	blend_background();
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	blend_overlay();
}

static void scene_blend_add(void)
{
	blend_background();
	glBlendFunc(GL_ONE, GL_ONE);
	blend_overlay();
}

static void scene_blend_subtract(void)
{
	blend_background();
	glBlendEquation(GL_FUNC_REVERSE_SUBTRACT);
	glBlendFunc(GL_DST_COLOR, GL_ONE_MINUS_SRC_COLOR);
	blend_overlay();
	glBlendEquation(GL_FUNC_ADD);
}

static void scene_blend_separate(void)
{
	blend_background();
	glBlendColor(0.25f, 0.5f, 0.75f, 0.6f);
	glBlendEquationSeparate(GL_FUNC_SUBTRACT, GL_FUNC_ADD);
	glBlendFuncSeparate(GL_CONSTANT_COLOR, GL_ONE_MINUS_DST_ALPHA,
			    GL_SRC_ALPHA_SATURATE, GL_CONSTANT_ALPHA);
	blend_overlay();
	glBlendEquation(GL_FUNC_ADD);
}

static void scene_colormask_scissor(void)
{
	static const float col[] = {
		1, 0.5f, 0.25f, 1, 0, 1, 0.5f, 0.5f, 0.5f, 0, 1, 0.75f, 1, 1, 0, 0.25f,
	};

	begin(fs_color, 0.5f, 0.5f, 0.5f, 0.5f);
	glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
	px_rect(0, 0, 32, 64, 0, col, NULL);
	glColorMask(GL_FALSE, GL_TRUE, GL_FALSE, GL_TRUE);
	glEnable(GL_SCISSOR_TEST);
	glScissor(20, 10, 30, 40);
	px_rect(0, 0, 64, 64, 0, col, NULL);
	glDisable(GL_SCISSOR_TEST);
	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

/* Two triangles of each winding, culled under each setting. */
static void scene_cull(void)
{
	static const float xy[] = {
		2, 2, 14, 2, 2, 14,		/* counter-clockwise (GL) */
		18, 2, 18, 14, 30, 2,		/* clockwise */
	};
	static const GLenum modes[4][2] = {
		{ GL_BACK, GL_CCW }, { GL_FRONT, GL_CCW },
		{ GL_BACK, GL_CW }, { GL_FRONT_AND_BACK, GL_CCW },
	};
	float pos[6 * 4];
	int i, k;

	begin(fs_color, 0, 0, 0, 1);
	glEnable(GL_CULL_FACE);
	for (i = 0; i < 4; i++) {
		glCullFace(modes[i][0]);
		glFrontFace(modes[i][1]);
		px_pos(pos, xy, 6, 0);
		for (k = 0; k < 6; k++) {
			pos[4 * k] = nx(xy[2 * k] + 32 * (i & 1));
			pos[4 * k + 1] = ny(xy[2 * k + 1] + 32 * (i >> 1));
		}
		gl_draw(GL_TRIANGLES, 6, pos, tris_col, NULL);
	}
	glDisable(GL_CULL_FACE);
	glFrontFace(GL_CCW);
}

/* Perspective: w grows to the right, the colours must bend with it. */
static void scene_perspective(void)
{
	static const float pos[] = {
		-1, -1, 0, 1, 4, -4, 0, 4, -1, 1, 0, 1, 4, 4, 0, 4,
	};
	static const float col[] = {
		1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1,
	};

	begin(fs_color, 0, 0, 0, 1);
	gl_draw(GL_TRIANGLE_STRIP, 4, pos, col, NULL);
}

static void scene_discard(void)
{
	static const char fs[] =
		"precision mediump float;\n"
		"varying vec4 vcol;\n"
		"void main() {\n"
		"	if (vcol.a < 0.5) discard;\n"
		"	gl_FragColor = vcol;\n"
		"}\n";
	static const float col[] = {
		1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0,
	};

	begin(fs, 0, 0, 0, 1);
	px_rect(0, 0, 64, 64, 0, col, NULL);
}

static void scene_fragcoord(void)
{
	static const char fs[] =
		"precision mediump float;\n"
		"void main() {\n"
		"	gl_FragColor = vec4(gl_FragCoord.x / 64.0,\n"
		"			    gl_FragCoord.y / 64.0, gl_FragCoord.z, 1.0);\n"
		"}\n";

	begin(fs, 0, 0, 0, 1);
	px_rect(0, 0, 64, 64, 0.5f, NULL, NULL);
}

/* ---- textures ------------------------------------------------------------- */

struct texfmt {
	GLenum format, type;
	int bpp;
};

/* A 16x16 texture of hashed bytes in the given format. */
static GLuint make_texture(const struct texfmt *f, GLenum filter, GLenum wrap)
{
	uint8_t data[16 * 16 * 4];
	uint32_t h = 0x9e3779b9u;
	GLuint tex;
	int i;

	for (i = 0; i < 16 * 16 * f->bpp; i++) {
		h = h * 1664525u + 1013904223u;
		data[i] = (uint8_t)(h >> 24);
	}
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	glTexImage2D(GL_TEXTURE_2D, 0, (GLint)f->format, 16, 16, 0, f->format,
		     f->type, data);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, (GLint)filter);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, (GLint)filter);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, (GLint)wrap);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, (GLint)wrap);
	return tex;
}

static void textured(const struct texfmt *f, GLenum filter)
{
	GLuint tex;

	begin(fs_tex, 0.5f, 0.5f, 0.5f, 0.5f);
	tex = make_texture(f, filter, GL_CLAMP_TO_EDGE);
	/* magnified 3x, off the pixel grid by a third */
	px_rect(4.0f / 3.0f, 2.0f / 3.0f, 4.0f / 3.0f + 48, 2.0f / 3.0f + 48, 0,
		NULL, quad_tc);
	/* and minified to 12 pixels */
	px_rect(50, 50, 62, 62, 0, NULL, quad_tc);
	glDeleteTextures(1, &tex);
}

#define TEXTURE_SCENE(name, fmt, type, bpp)					\
	static void scene_tex_##name(void)					\
	{									\
		static const struct texfmt f = { fmt, type, bpp };		\
		textured(&f, GL_NEAREST);					\
	}									\
	static void scene_tex_##name##_linear(void)				\
	{									\
		static const struct texfmt f = { fmt, type, bpp };		\
		textured(&f, GL_LINEAR);					\
	}

TEXTURE_SCENE(rgba8888, GL_RGBA, GL_UNSIGNED_BYTE, 4)
TEXTURE_SCENE(rgb888, GL_RGB, GL_UNSIGNED_BYTE, 3)
TEXTURE_SCENE(rgb565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 2)
TEXTURE_SCENE(rgba4444, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, 2)
TEXTURE_SCENE(rgba5551, GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1, 2)
TEXTURE_SCENE(l8, GL_LUMINANCE, GL_UNSIGNED_BYTE, 1)
TEXTURE_SCENE(a8, GL_ALPHA, GL_UNSIGNED_BYTE, 1)
TEXTURE_SCENE(la88, GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, 2)
TEXTURE_SCENE(bgra8888, GL_BGRA_EXT, GL_UNSIGNED_BYTE, 4)

/* Every level its own colour; drawn at 64, 32, ... 1 pixels, each
 * rectangle shows one level. */
static void mip_texture(GLenum min_filter)
{
	static const uint32_t colors[7] = {
		0xff0000ff, 0xff00ff00, 0xffff0000, 0xff00ffff, 0xffff00ff,
		0xffffff00, 0xff808080,
	};
	static uint32_t data[64 * 64];
	GLuint tex;
	int l, i, size, x = 0;

	begin(fs_tex, 0, 0, 0, 0);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	for (l = 0; l < 7; l++) {
		size = 64 >> l;
		for (i = 0; i < size * size; i++)
			data[i] = colors[l];
		glTexImage2D(GL_TEXTURE_2D, l, GL_RGBA, size, size, 0, GL_RGBA,
			     GL_UNSIGNED_BYTE, data);
	}
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, (GLint)min_filter);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	for (l = 1; l < 7; l++) {
		size = 64 >> l;
		px_rect((float)x, 0, (float)(x + size), (float)size, 0, NULL, quad_tc);
		x += size + 1;
	}
	/* and a long thin one: the larger footprint decides */
	px_rect(0, 40, 64, 48, 0, NULL, quad_tc);
	glDeleteTextures(1, &tex);
}

static void scene_tex_mipmap(void)
{
	mip_texture(GL_NEAREST_MIPMAP_NEAREST);
}

static void scene_tex_mipmap_linear(void)
{
	mip_texture(GL_LINEAR_MIPMAP_LINEAR);
}

/* glGenerateMipmap: Mesa renders each level from the one above through
 * the 3D pipeline, into a render target at an offset in the texture (the
 * drawing rectangle's origin).  How a level is filtered down is up to
 * the implementation (llvmpipe filters some from level 0), so the image
 * is made of gradients, which every box filter reduces alike. */
static void scene_tex_generate_mipmap(void)
{
	static uint32_t data[64 * 64];
	GLuint tex;
	int i, l, size, x = 0;

	for (i = 0; i < 64 * 64; i++)
		data[i] = 0xff000000u | (uint32_t)((i % 64) * 4) |
			  (uint32_t)((i / 64) * 4) << 8 |
			  (uint32_t)((i % 64 + i / 64) * 2) << 16;
	begin(fs_tex, 0, 0, 0, 0);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, data);
	glGenerateMipmap(GL_TEXTURE_2D);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	for (l = 1; l < 7; l++) {
		size = 64 >> l;
		px_rect((float)x, 0, (float)(x + size), (float)size, 0, NULL, quad_tc);
		x += size + 1;
	}
	glDeleteTextures(1, &tex);
}

static void scene_tex_wrap(void)
{
	static const struct texfmt f = { GL_RGBA, GL_UNSIGNED_BYTE, 4 };
	static const GLenum wraps[3] = {
		GL_REPEAT, GL_MIRRORED_REPEAT, GL_CLAMP_TO_EDGE,
	};
	/* no pixel centre lands on a texel edge */
	static const float tc[16] = {
		-1.2379f, -1.0311f, 0, 1, 2.2417f, -1.0311f, 0, 1,
		-1.2379f, 2.0173f, 0, 1, 2.2417f, 2.0173f, 0, 1,
	};
	GLuint tex;
	int i;

	begin(fs_tex, 0, 0, 0, 0);
	for (i = 0; i < 3; i++) {
		tex = make_texture(&f, GL_NEAREST, wraps[i]);
		px_rect(0, 21.0f * i, 64, 21.0f * i + 20, 0, NULL, tc);
		glDeleteTextures(1, &tex);
	}
}

static void scene_tex_npot(void)
{
	static uint8_t data[20 * 12 * 4];
	GLuint tex;
	int i;

	for (i = 0; i < (int)sizeof(data); i++)
		data[i] = (uint8_t)(i * 37 + (i >> 5));
	begin(fs_tex, 0, 0, 0, 0);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 20, 12, 0, GL_RGBA, GL_UNSIGNED_BYTE,
		     data);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	px_rect(2, 2, 62, 38, 0, NULL, quad_tc);
	glDeleteTextures(1, &tex);
}

static void scene_tex_cube(void)
{
	static const char fs[] =
		"precision mediump float;\n"
		"uniform samplerCube s;\n"
		"varying vec4 vtc;\n"
		"void main() { gl_FragColor = textureCube(s, vtc.xyz); }\n";
	static const float tc[16] = {
		-1, -0.6f, 1, 1, 1, -0.6f, 1, 1, -1, 0.6f, -1, 1, 1, 0.6f, -1, 1,
	};
	static uint32_t data[16 * 16];
	GLuint tex;
	int f, i;

	begin(fs, 0, 0, 0, 0);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_CUBE_MAP, tex);
	for (f = 0; f < 6; f++) {
		for (i = 0; i < 16 * 16; i++)
			data[i] = 0xff000000u | (uint32_t)(40 * f + 20) << (8 * (f % 3)) |
				  (uint32_t)(i * 3) << (8 * ((f + 1) % 3));
		glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA, 16, 16, 0,
			     GL_RGBA, GL_UNSIGNED_BYTE, data);
	}
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	px_rect(0, 0, 64, 64, 0, NULL, tc);
	glDeleteTextures(1, &tex);
}

/* Render a scene into one framebuffer, copy part of it into a texture
 * with glCopyTexSubImage2D, draw that texture into another. */
static void scene_copytexsubimage(void)
{
	static uint32_t data[32 * 32];
	struct gl_fbo src;
	GLuint tex, fb;
	GLint prev;
	int i;

	glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev);
	fb = (GLuint)prev;
	gl_fbo_init(&src, W, H, GL_RGBA8_OES, 0, false);
	scene_triangles_smooth();
	for (i = 0; i < 32 * 32; i++)
		data[i] = 0xff204060u + (uint32_t)i;
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE,
		     data);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 4, 2, 10, 20, 28, 30);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glViewport(0, 0, W, H);
	begin(fs_tex, 0.25f, 0, 0, 1);
	px_rect(0, 0, 64, 64, 0, NULL, quad_tc);
	glDeleteTextures(1, &tex);
	gl_fbo_fini(&src);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
}

/* Surfaces wider than one 512-byte tile: a 256x64 texture uploaded from
 * the CPU, and a 256x64 framebuffer drawn by the GPU and then sampled.
 * Narrower surfaces look the same tiled or not. */
static void scene_tex_wide(void)
{
	static uint32_t data[256 * 64];
	GLuint tex;
	int i;

	for (i = 0; i < 256 * 64; i++)
		data[i] = 0xff000000u | (uint32_t)i * 2654435761u >> 8;
	gl_program(vs_basic, fs_tex);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 256, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE,
		     data);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	px_rect(0, 0, 64, 64, 0, NULL, quad_tc);
	glDeleteTextures(1, &tex);
}

static void scene_fbo_wide(void)
{
	static const float pos[] = {
		-1, -1, 0, 1, 1, -0.8f, 0, 1, -0.6f, 1, 0, 1, 0.9f, 0.95f, 0, 1,
	};
	struct gl_fbo big;
	GLint prev;

	glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev);
	gl_fbo_init(&big, 256, 64, 0, 0, true);
	begin(fs_color, 0.2f, 0.2f, 0.2f, 1);
	gl_draw(GL_TRIANGLE_STRIP, 4, pos, tris_col, NULL);
	glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)prev);
	glViewport(0, 0, W, H);
	gl_program(vs_basic, fs_tex);
	glBindTexture(GL_TEXTURE_2D, big.tex);
	px_rect(0, 0, 64, 64, 0, NULL, quad_tc);
	gl_fbo_fini(&big);
	glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)prev);
}

/* ---- the table -------------------------------------------------------------- */

struct scene {
	const char *name;
	void (*draw)(void);
	GLenum color;			/* renderbuffer format */
	GLenum depth;			/* depth(-stencil) renderbuffer, 0: none */
	int tolerance;			/* per channel, 8-bit units */
	const char *ext;		/* needs this extension */
};

static const struct scene scenes[] = {
	{ "clear", scene_clear, GL_RGBA8_OES, 0, 1 },
	{ "triangles-flat", scene_triangles_flat, GL_RGBA8_OES, 0, 1 },
	{ "triangles-smooth", scene_triangles_smooth, GL_RGBA8_OES, 0, 1 },
	{ "strip-fan", scene_strip_fan, GL_RGBA8_OES, 0, 1 },
	{ "lines", scene_lines, GL_RGBA8_OES, 0, 1 },
	{ "points", scene_points, GL_RGBA8_OES, 0, 1 },
	{ "depth16", depth_scene, GL_RGBA8_OES, GL_DEPTH_COMPONENT16, 1 },
	{ "depth24-stencil8", depth_scene, GL_RGBA8_OES, GL_DEPTH24_STENCIL8_OES, 1,
	  "GL_OES_packed_depth_stencil" },
	{ "stencil", scene_stencil, GL_RGBA8_OES, GL_DEPTH24_STENCIL8_OES, 1,
	  "GL_OES_packed_depth_stencil" },
	{ "stencil-two-sided", scene_stencil_two_sided, GL_RGBA8_OES,
	  GL_DEPTH24_STENCIL8_OES, 1, "GL_OES_packed_depth_stencil" },
	{ "blend-alpha", scene_blend_alpha, GL_RGBA8_OES, 0, 1 },
	{ "blend-add", scene_blend_add, GL_RGBA8_OES, 0, 1 },
	/* dst * (1 - src) - src * dst doubles a source's one-step
	 * interpolation difference */
	{ "blend-subtract", scene_blend_subtract, GL_RGBA8_OES, 0, 2 },
	{ "blend-separate", scene_blend_separate, GL_RGBA8_OES, 0, 1 },
	{ "colormask-scissor", scene_colormask_scissor, GL_RGBA8_OES, 0, 1 },
	{ "cull", scene_cull, GL_RGBA8_OES, 0, 1 },
	{ "perspective", scene_perspective, GL_RGBA8_OES, 0, 1 },
	{ "discard", scene_discard, GL_RGBA8_OES, 0, 1 },
	{ "fragcoord", scene_fragcoord, GL_RGBA8_OES, 0, 1 },
	{ "tex-rgba8888", scene_tex_rgba8888, GL_RGBA8_OES, 0, 1 },
	{ "tex-rgb888", scene_tex_rgb888, GL_RGBA8_OES, 0, 1 },
	{ "tex-rgb565", scene_tex_rgb565, GL_RGBA8_OES, 0, 1 },
	{ "tex-rgba4444", scene_tex_rgba4444, GL_RGBA8_OES, 0, 1 },
	{ "tex-rgba5551", scene_tex_rgba5551, GL_RGBA8_OES, 0, 1 },
	{ "tex-l8", scene_tex_l8, GL_RGBA8_OES, 0, 1 },
	{ "tex-a8", scene_tex_a8, GL_RGBA8_OES, 0, 1 },
	{ "tex-la88", scene_tex_la88, GL_RGBA8_OES, 0, 1 },
	{ "tex-bgra8888", scene_tex_bgra8888, GL_RGBA8_OES, 0, 1,
	  "GL_EXT_texture_format_BGRA8888" },
	{ "tex-rgba8888-linear", scene_tex_rgba8888_linear, GL_RGBA8_OES, 0, 2 },
	{ "tex-rgb888-linear", scene_tex_rgb888_linear, GL_RGBA8_OES, 0, 2 },
	{ "tex-rgb565-linear", scene_tex_rgb565_linear, GL_RGBA8_OES, 0, 2 },
	{ "tex-rgba4444-linear", scene_tex_rgba4444_linear, GL_RGBA8_OES, 0, 2 },
	{ "tex-rgba5551-linear", scene_tex_rgba5551_linear, GL_RGBA8_OES, 0, 2 },
	{ "tex-l8-linear", scene_tex_l8_linear, GL_RGBA8_OES, 0, 2 },
	{ "tex-a8-linear", scene_tex_a8_linear, GL_RGBA8_OES, 0, 2 },
	{ "tex-la88-linear", scene_tex_la88_linear, GL_RGBA8_OES, 0, 2 },
	{ "tex-bgra8888-linear", scene_tex_bgra8888_linear, GL_RGBA8_OES, 0, 2,
	  "GL_EXT_texture_format_BGRA8888" },
	{ "tex-mipmap", scene_tex_mipmap, GL_RGBA8_OES, 0, 1 },
	{ "tex-mipmap-linear", scene_tex_mipmap_linear, GL_RGBA8_OES, 0, 2 },
	{ "tex-generate-mipmap", scene_tex_generate_mipmap, GL_RGBA8_OES, 0, 2 },
	{ "tex-wrap", scene_tex_wrap, GL_RGBA8_OES, 0, 1 },
	{ "tex-npot", scene_tex_npot, GL_RGBA8_OES, 0, 1 },
	{ "tex-cube", scene_tex_cube, GL_RGBA8_OES, 0, 1 },
	{ "copytexsubimage", scene_copytexsubimage, GL_RGBA8_OES, 0, 1 },
	{ "tex-wide", scene_tex_wide, GL_RGBA8_OES, 0, 1 },
	{ "fbo-wide", scene_fbo_wide, GL_RGBA8_OES, 0, 1 },
	/* glReadPixels of each renderbuffer format: one step of the format */
	{ "readpixels-rgb565", scene_triangles_smooth, GL_RGB565, 0, 9 },
	{ "readpixels-rgba4", scene_triangles_smooth, GL_RGBA4, 0, 17 },
	{ "readpixels-rgb5-a1", scene_triangles_smooth, GL_RGB5_A1, 0, 9 },
	{ "readpixels-rgb8", scene_triangles_smooth, GL_RGB8_OES, 0, 1,
	  "GL_OES_rgb8_rgba8" },
};

#define NSCENES (sizeof(scenes) / sizeof(scenes[0]))

static bool wanted(const struct scene *s, int argc, char **argv, int first)
{
	int i;

	if (first >= argc)
		return true;
	for (i = first; i < argc; i++)
		if (!strcmp(argv[i], s->name))
			return true;
	return false;
}

static int render(bool sw, const char *dir, int argc, char **argv, int first)
{
	char path[4096];
	struct gl_fbo fbo;
	size_t i;
	int ret = 0;

	if (gl_init(sw))
		return 1;
	printf("renderer: %s\n", gl_renderer());
	for (i = 0; i < NSCENES; i++) {
		const struct scene *s = &scenes[i];

		if (!wanted(s, argc, argv, first))
			continue;
		if (s->ext && !gl_has_extension(s->ext)) {
			printf("%s: skipped, no %s\n", s->name, s->ext);
			continue;
		}
		gl_fbo_init(&fbo, W, H, s->color, s->depth, false);
		s->draw();
		snprintf(path, sizeof(path), "%s/%s.pam", dir, s->name);
		if (gl_dump(path, W, H) || glGetError() != GL_NO_ERROR) {
			fprintf(stderr, "gl-scenes: %s: failed\n", s->name);
			ret = 1;
		}
		gl_fbo_fini(&fbo);
	}
	gl_fini();
	return ret;
}

/* Compare a scene's two images: the largest channel difference, and
 * where the first pixel beyond the tolerance is. */
static int compare_one(const struct scene *s, const char *a, const char *b)
{
	struct gl_image ia, ib;
	char pa[4096], pb[4096];
	int maxd = 0, over = 0, first = -1, i, d;

	snprintf(pa, sizeof(pa), "%s/%s.pam", a, s->name);
	snprintf(pb, sizeof(pb), "%s/%s.pam", b, s->name);
	if (gl_image_read(pa, &ia)) {
		printf("%-24s missing %s\n", s->name, pa);
		return 1;
	}
	if (gl_image_read(pb, &ib)) {
		printf("%-24s missing %s\n", s->name, pb);
		gl_image_free(&ia);
		return 1;
	}
	if (ia.w != ib.w || ia.h != ib.h) {
		printf("%-24s sizes differ\n", s->name);
		gl_image_free(&ia);
		gl_image_free(&ib);
		return 1;
	}
	for (i = 0; i < ia.w * ia.h * 4; i++) {
		d = abs((int)ia.px[i] - (int)ib.px[i]);
		maxd = d > maxd ? d : maxd;
		if (d > s->tolerance) {
			over++;
			if (first < 0)
				first = i;
		}
	}
	printf("%-24s max channel difference %3d (tolerance %2d)", s->name, maxd,
	       s->tolerance);
	if (over) {
		int px = first / 4;

		printf(": %d channels over, first at (%d,%d): %02x%02x%02x%02x vs "
		       "%02x%02x%02x%02x", over, px % ia.w, px / ia.w,
		       ia.px[4 * px], ia.px[4 * px + 1], ia.px[4 * px + 2],
		       ia.px[4 * px + 3], ib.px[4 * px], ib.px[4 * px + 1],
		       ib.px[4 * px + 2], ib.px[4 * px + 3]);
	}
	printf("\n");
	gl_image_free(&ia);
	gl_image_free(&ib);
	return over ? 1 : 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: gl-scenes [--sw] --out DIR [SCENE...]\n"
			"       gl-scenes --list\n"
			"       gl-scenes --compare DIR_A DIR_B [SCENE...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	size_t i;
	int ret = 0;

	if (argc >= 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < NSCENES; i++)
			printf("%s %d\n", scenes[i].name, scenes[i].tolerance);
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "--compare")) {
		for (i = 0; i < NSCENES; i++)
			if (wanted(&scenes[i], argc, argv, 4))
				ret |= compare_one(&scenes[i], argv[2], argv[3]);
		return ret;
	}
	if (argc >= 4 && !strcmp(argv[1], "--sw") && !strcmp(argv[2], "--out"))
		return render(true, argv[3], argc, argv, 4);
	if (argc >= 3 && !strcmp(argv[1], "--out"))
		return render(false, argv[2], argc, argv, 3);
	return usage();
}
