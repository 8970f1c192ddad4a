/*
 * gl-bench: GLES2 workloads for `gemctl bench gl`, run through Mesa's i915
 * driver on gemd (under `gemctl run`) or through llvmpipe (--sw).
 *
 *	gl-bench [--sw] [--duration MS] WORKLOAD
 *
 * Fill rates draw full-screen rectangles into a 512x512 framebuffer:
 *   fill-flat       constant colour
 *   fill-smooth     a colour per vertex
 *   fill-texture    a 256x256 texture, bilinear, magnified
 *   fill-blend      constant colour, alpha-blended over the last
 * The GL workloads model the seed's programs:
 *   frame           one frame of gears, at 512x512 (the "GL frame")
 *   gears           gears: three gears of 480 triangles each, rotating,
 *                   depth-tested and lit per pixel
 *   texdown         a 512x512 texture uploaded with glTexSubImage2D and
 *                   drawn, every frame
 *   ipers           500 small textured quads a frame, 16 textures
 *
 * The protocol with the caller, so it can read gemd's CPU around the
 * measured window without timing guesses: after a warm-up frame the
 * program prints "ready" and runs for the duration, then prints
 *
 *	done frames=N ns=WALL user_ns=U sys_ns=S pixels=P
 *
 * and waits for its standard input to close before it exits (gemd frees
 * the connection's thread at exit, with its CPU time).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "gltest.h"

#define FB 512

static const char vs[] =
	"attribute vec4 pos;\n"
	"attribute vec4 col;\n"
	"attribute vec4 tc;\n"
	"uniform mat4 mvp;\n"
	"varying vec4 vcol;\n"
	"varying vec4 vtc;\n"
	"void main() {\n"
	"	gl_Position = mvp * pos;\n"
	"	vcol = col;\n"
	"	vtc = tc;\n"
	"}\n";

static const char fs_color[] =
	"precision mediump float;\n"
	"varying vec4 vcol;\n"
	"void main() { gl_FragColor = vcol; }\n";

static const char fs_tex[] =
	"precision mediump float;\n"
	"uniform sampler2D s;\n"
	"varying vec4 vtc;\n"
	"varying vec4 vcol;\n"
	"void main() { gl_FragColor = texture2D(s, vtc.xy) * vcol; }\n";

static const char fs_lit[] =
	"precision mediump float;\n"
	"varying vec4 vcol;\n"
	"varying vec4 vtc;\n"
	"void main() {\n"
	"	float d = max(dot(normalize(vtc.xyz), vec3(0.4, 0.5, 0.77)), 0.0);\n"
	"	gl_FragColor = vec4(vcol.rgb * (0.2 + 0.8 * d), 1.0);\n"
	"}\n";

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void cpu_ns(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull +
		(uint64_t)ru.ru_utime.tv_usec * 1000ull;
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull +
	       (uint64_t)ru.ru_stime.tv_usec * 1000ull;
}

static void set_mvp(GLuint prog, const float m[16])
{
	glUniformMatrix4fv(glGetUniformLocation(prog, "mvp"), 1, GL_FALSE, m);
}

static const float identity[16] = {
	1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
};

static const float quad_pos[16] = {
	-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1,
};
static const float quad_tc[16] = {
	0.1f, 0.1f, 0, 1, 0.6f, 0.1f, 0, 1, 0.1f, 0.6f, 0, 1, 0.6f, 0.6f, 0, 1,
};
static const float quad_col[16] = {
	1, 0, 0, 0.5f, 0, 1, 0, 0.5f, 0, 0, 1, 0.5f, 1, 1, 1, 0.5f,
};
static const float quad_flat[16] = {
	0.2f, 0.4f, 0.6f, 0.5f, 0.2f, 0.4f, 0.6f, 0.5f, 0.2f, 0.4f, 0.6f, 0.5f,
	0.2f, 0.4f, 0.6f, 0.5f,
};

static GLuint texture(int w, int h, uint32_t seed)
{
	uint32_t *data = malloc((size_t)w * h * 4);
	GLuint tex;
	int i;

	for (i = 0; i < w * h; i++) {
		seed = seed * 1664525u + 1013904223u;
		data[i] = seed | 0xff000000u;
	}
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, data);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	free(data);
	return tex;
}

/* ---- the workloads: setup, then one frame at a time --------------------- */

struct work {
	GLuint prog;
	GLuint tex[16];
	float angle;
	uint32_t *upload;
	/* gears: a triangle list per gear */
	float *gear_pos[3], *gear_col[3], *gear_nrm[3];
	int gear_n[3];
	uint64_t pixels;		/* per frame, for the fill rates */
};

static void fill_setup(struct work *w, const char *name)
{
	bool tex = !strcmp(name, "fill-texture");

	w->prog = gl_program(vs, tex ? fs_tex : fs_color);
	set_mvp(w->prog, identity);
	if (tex)
		w->tex[0] = texture(256, 256, 1);
	if (!strcmp(name, "fill-blend")) {
		glEnable(GL_BLEND);
		glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	}
	w->pixels = 4ull * FB * FB;
}

static void fill_frame(struct work *w, const char *name)
{
	const float *col = !strcmp(name, "fill-flat") || !strcmp(name, "fill-blend") ?
			   quad_flat : quad_col;
	int i;

	for (i = 0; i < 4; i++)
		gl_draw(GL_TRIANGLE_STRIP, 4, quad_pos, col,
			!strcmp(name, "fill-texture") ? quad_tc : NULL);
}

/* A gear: teeth around a ring, front and back faces and the outer
 * band, as triangles with a normal each (passed as tc). */
static void gear_build(struct work *w, int g, float r0, float r1, float r2,
		       int teeth, const float col[3])
{
	int per_tooth = 16 * 3, n = teeth * per_tooth, i, k, t;
	float *p = malloc((size_t)n * 4 * sizeof(float));
	float *c = malloc((size_t)n * 4 * sizeof(float));
	float *nm = malloc((size_t)n * 4 * sizeof(float));
	float da = 2.0f * (float)M_PI / (float)teeth / 4.0f;

	k = 0;
	for (t = 0; t < teeth; t++) {
		float a = (float)t * 2.0f * (float)M_PI / (float)teeth;
		float pts[4][2] = {
			{ r1 * cosf(a), r1 * sinf(a) },
			{ r2 * cosf(a + da), r2 * sinf(a + da) },
			{ r2 * cosf(a + 2 * da), r2 * sinf(a + 2 * da) },
			{ r1 * cosf(a + 3 * da), r1 * sinf(a + 3 * da) },
		};
		float inner[2][2] = {
			{ r0 * cosf(a), r0 * sinf(a) },
			{ r0 * cosf(a + 4 * da), r0 * sinf(a + 4 * da) },
		};
		float next[2] = { r1 * cosf(a + 4 * da), r1 * sinf(a + 4 * da) };
		const float *tri[16][3];
		float zf[16];

		/* front face (z = 0.1) and back face (z = -0.1): the ring
		 * segment and the tooth, 4 + 4 triangles; then 8 for sides */
		for (i = 0; i < 2; i++) {
			int b = 8 * i;

			tri[b + 0][0] = inner[0]; tri[b + 0][1] = pts[0]; tri[b + 0][2] = inner[1];
			tri[b + 1][0] = pts[0]; tri[b + 1][1] = next; tri[b + 1][2] = inner[1];
			tri[b + 2][0] = pts[0]; tri[b + 2][1] = pts[1]; tri[b + 2][2] = pts[3];
			tri[b + 3][0] = pts[1]; tri[b + 3][1] = pts[2]; tri[b + 3][2] = pts[3];
			tri[b + 4][0] = pts[0]; tri[b + 4][1] = pts[3]; tri[b + 4][2] = next;
			tri[b + 5][0] = pts[1]; tri[b + 5][1] = pts[2]; tri[b + 5][2] = next;
			tri[b + 6][0] = inner[0]; tri[b + 6][1] = pts[3]; tri[b + 6][2] = inner[1];
			tri[b + 7][0] = pts[3]; tri[b + 7][1] = pts[2]; tri[b + 7][2] = next;
			for (k = 0; k < 8; k++)
				zf[b + k] = i ? -0.1f : 0.1f;
		}
		for (i = 0; i < 16; i++) {
			int v, base = (t * per_tooth + 3 * i) * 4;

			for (v = 0; v < 3; v++) {
				p[base + 4 * v] = tri[i][v][0];
				p[base + 4 * v + 1] = tri[i][v][1];
				p[base + 4 * v + 2] = zf[i] * (v == 2 ? -0.5f : 1.0f);
				p[base + 4 * v + 3] = 1;
				c[base + 4 * v] = col[0];
				c[base + 4 * v + 1] = col[1];
				c[base + 4 * v + 2] = col[2];
				c[base + 4 * v + 3] = 1;
				nm[base + 4 * v] = tri[i][v][0];
				nm[base + 4 * v + 1] = tri[i][v][1];
				nm[base + 4 * v + 2] = zf[i] * 5.0f;
				nm[base + 4 * v + 3] = 0;
			}
		}
	}
	w->gear_pos[g] = p;
	w->gear_col[g] = c;
	w->gear_nrm[g] = nm;
	w->gear_n[g] = n;
}

static void gears_setup(struct work *w)
{
	static const float red[3] = { 0.8f, 0.1f, 0.0f };
	static const float green[3] = { 0.0f, 0.8f, 0.2f };
	static const float blue[3] = { 0.2f, 0.2f, 1.0f };

	w->prog = gl_program(vs, fs_lit);
	glEnable(GL_DEPTH_TEST);
	glEnable(GL_CULL_FACE);
	glCullFace(GL_BACK);
	glDisable(GL_CULL_FACE);
	gear_build(w, 0, 0.1f, 0.4f, 0.5f, 30, red);
	gear_build(w, 1, 0.05f, 0.2f, 0.3f, 30, green);
	gear_build(w, 2, 0.13f, 0.2f, 0.3f, 30, blue);
}

static void rot_z(float m[16], float a, float s, float tx, float ty)
{
	float c = cosf(a), n = sinf(a);

	memset(m, 0, 16 * sizeof(float));
	/* a slight tilt so the sides show: rotate about x by 0.3 */
	m[0] = c * s;
	m[1] = n * s * 0.955f;
	m[2] = n * s * 0.296f;
	m[4] = -n * s;
	m[5] = c * s * 0.955f;
	m[6] = c * s * 0.296f;
	m[9] = -0.296f * s;
	m[10] = 0.955f * s;
	m[12] = tx;
	m[13] = ty;
	m[15] = 1;
}

static void gears_frame(struct work *w)
{
	static const float place[3][3] = {
		{ -0.3f, -0.2f, 1 }, { 0.45f, -0.25f, -2 }, { -0.3f, 0.55f, -2 },
	};
	float m[16];
	int g;

	glClearColor(0.1f, 0.1f, 0.15f, 1);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	for (g = 0; g < 3; g++) {
		rot_z(m, w->angle * place[g][2], 1.0f, place[g][0], place[g][1]);
		set_mvp(w->prog, m);
		gl_draw(GL_TRIANGLES, w->gear_n[g], w->gear_pos[g], w->gear_col[g],
			w->gear_nrm[g]);
	}
	w->angle += 0.02f;
}

static void texdown_setup(struct work *w)
{
	w->prog = gl_program(vs, fs_tex);
	set_mvp(w->prog, identity);
	w->tex[0] = texture(512, 512, 3);
	w->upload = malloc(512 * 512 * 4);
	memset(w->upload, 0x5a, 512 * 512 * 4);
}

static void texdown_frame(struct work *w)
{
	static uint32_t n;

	w->upload[0] = ++n;
	glBindTexture(GL_TEXTURE_2D, w->tex[0]);
	glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 512, 512, GL_RGBA, GL_UNSIGNED_BYTE,
			w->upload);
	gl_draw(GL_TRIANGLE_STRIP, 4, quad_pos, quad_col, quad_tc);
}

static void ipers_setup(struct work *w)
{
	int i;

	w->prog = gl_program(vs, fs_tex);
	set_mvp(w->prog, identity);
	for (i = 0; i < 16; i++)
		w->tex[i] = texture(64, 64, 10u + (uint32_t)i);
}

static void ipers_frame(struct work *w)
{
	float pos[16], x, y;
	int i, k;

	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	for (i = 0; i < 500; i++) {
		x = -1.0f + (float)(i % 25) * 0.08f + w->angle * 0.01f;
		y = -1.0f + (float)(i / 25) * 0.1f;
		for (k = 0; k < 4; k++) {
			pos[4 * k] = x + (k & 1 ? 0.07f : 0.0f);
			pos[4 * k + 1] = y + (k & 2 ? 0.09f : 0.0f);
			pos[4 * k + 2] = 0;
			pos[4 * k + 3] = 1;
		}
		glBindTexture(GL_TEXTURE_2D, w->tex[i % 16]);
		gl_draw(GL_TRIANGLE_STRIP, 4, pos, quad_col, quad_tc);
	}
	w->angle += 1.0f;
}

static int setup(struct work *w, const char *name)
{
	if (!strncmp(name, "fill-", 5) &&
	    (!strcmp(name, "fill-flat") || !strcmp(name, "fill-smooth") ||
	     !strcmp(name, "fill-texture") || !strcmp(name, "fill-blend")))
		fill_setup(w, name);
	else if (!strcmp(name, "frame") || !strcmp(name, "gears"))
		gears_setup(w);
	else if (!strcmp(name, "texdown"))
		texdown_setup(w);
	else if (!strcmp(name, "ipers"))
		ipers_setup(w);
	else
		return -1;
	return 0;
}

static void frame(struct work *w, const char *name)
{
	if (!strncmp(name, "fill-", 5))
		fill_frame(w, name);
	else if (!strcmp(name, "frame") || !strcmp(name, "gears"))
		gears_frame(w);
	else if (!strcmp(name, "texdown"))
		texdown_frame(w);
	else
		ipers_frame(w);
}

/* glReadPixels of one pixel waits for the frame, as a swap would. */
static void finish(void)
{
	uint8_t px[4];

	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
}

int main(int argc, char **argv)
{
	uint64_t duration_ns = 2000000000ull, t0, t1, u0, s0, u1, s1, frames = 0;
	struct work w = { 0 };
	struct gl_fbo fbo;
	const char *name = NULL;
	bool sw = false;
	char buf[64];
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sw"))
			sw = true;
		else if (!strcmp(argv[i], "--duration") && i + 1 < argc)
			duration_ns = strtoull(argv[++i], NULL, 10) * 1000000ull;
		else
			name = argv[i];
	}
	if (!name) {
		fprintf(stderr, "usage: gl-bench [--sw] [--duration MS] WORKLOAD\n");
		return 2;
	}
	if (gl_init(sw))
		return 1;
	gl_fbo_init(&fbo, FB, FB, GL_RGBA8_OES, GL_DEPTH_COMPONENT16, false);
	if (setup(&w, name)) {
		fprintf(stderr, "gl-bench: unknown workload '%s'\n", name);
		return 2;
	}
	frame(&w, name);
	finish();
	printf("ready\n");
	fflush(stdout);
	cpu_ns(&u0, &s0);
	t0 = now_ns();
	do {
		frame(&w, name);
		finish();
		frames++;
		t1 = now_ns();
	} while (t1 - t0 < duration_ns);
	cpu_ns(&u1, &s1);
	printf("done frames=%llu ns=%llu user_ns=%llu sys_ns=%llu pixels=%llu\n",
	       (unsigned long long)frames, (unsigned long long)(t1 - t0),
	       (unsigned long long)(u1 - u0), (unsigned long long)(s1 - s0),
	       (unsigned long long)(frames * w.pixels));
	fflush(stdout);
	while (fgets(buf, sizeof(buf), stdin))
		;
	gl_fbo_fini(&fbo);
	gl_fini();
	return 0;
}
