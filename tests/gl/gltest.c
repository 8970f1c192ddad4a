/* gltest: EGL set-up, programs, framebuffers and PAM images for the GL tests. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <gbm.h>

#include "gltest.h"

/* In a sanitized build: Mesa's drivers keep allocations until exit, which
 * LeakSanitizer would report as this program's leaks. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

static EGLDisplay dpy = EGL_NO_DISPLAY;
static EGLContext ctx = EGL_NO_CONTEXT;
static struct gbm_device *gbm;
static int drm_fd = -1;

int gl_init(bool sw)
{
	static const EGLint attrs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display;
	const char *dev = "/dev/dri/card0";
	EGLint major, minor;

	get_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)
		eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_display) {
		fprintf(stderr, "gltest: no eglGetPlatformDisplayEXT\n");
		return -1;
	}
	if (sw) {
		dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	} else {
		drm_fd = open(dev, O_RDWR | O_CLOEXEC);
		if (drm_fd < 0) {
			fprintf(stderr, "gltest: open %s: %s\n", dev, strerror(errno));
			return -1;
		}
		gbm = gbm_create_device(drm_fd);
		if (!gbm) {
			fprintf(stderr, "gltest: gbm_create_device failed\n");
			return -1;
		}
		dpy = get_display(EGL_PLATFORM_GBM_MESA, gbm, NULL);
	}
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
		fprintf(stderr, "gltest: eglInitialize: 0x%x\n", eglGetError());
		return -1;
	}
	eglBindAPI(EGL_OPENGL_ES_API);
	ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
	if (ctx == EGL_NO_CONTEXT ||
	    !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
		fprintf(stderr, "gltest: no GLES2 context: 0x%x\n", eglGetError());
		return -1;
	}
	return 0;
}

void gl_fini(void)
{
	if (dpy != EGL_NO_DISPLAY) {
		eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
		if (ctx != EGL_NO_CONTEXT)
			eglDestroyContext(dpy, ctx);
		eglTerminate(dpy);
	}
	if (gbm)
		gbm_device_destroy(gbm);
	if (drm_fd >= 0)
		close(drm_fd);
}

const char *gl_renderer(void)
{
	return (const char *)glGetString(GL_RENDERER);
}

bool gl_has_extension(const char *name)
{
	const char *ext = (const char *)glGetString(GL_EXTENSIONS), *p;
	size_t n = strlen(name);

	for (p = ext; p && (p = strstr(p, name)); p += n)
		if ((p == ext || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

static GLuint shader(GLenum type, const char *src)
{
	GLuint s = glCreateShader(type);
	char log[1024];
	GLint ok;

	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		glGetShaderInfoLog(s, sizeof(log), NULL, log);
		fprintf(stderr, "gltest: shader: %s\n%s\n", log, src);
		exit(1);
	}
	return s;
}

GLuint gl_program(const char *vs, const char *fs)
{
	GLuint p = glCreateProgram();
	char log[1024];
	GLint ok;

	glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
	glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
	glBindAttribLocation(p, 0, "pos");
	glBindAttribLocation(p, 1, "col");
	glBindAttribLocation(p, 2, "tc");
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		glGetProgramInfoLog(p, sizeof(log), NULL, log);
		fprintf(stderr, "gltest: link: %s\n", log);
		exit(1);
	}
	glUseProgram(p);
	return p;
}

void gl_fbo_init(struct gl_fbo *f, int w, int h, GLenum color_format,
		 GLenum depth_format, bool tex)
{
	GLenum st;

	memset(f, 0, sizeof(*f));
	f->w = w;
	f->h = h;
	glGenFramebuffers(1, &f->fb);
	glBindFramebuffer(GL_FRAMEBUFFER, f->fb);
	if (tex) {
		glGenTextures(1, &f->tex);
		glBindTexture(GL_TEXTURE_2D, f->tex);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA,
			     GL_UNSIGNED_BYTE, NULL);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
				       GL_TEXTURE_2D, f->tex, 0);
	} else {
		glGenRenderbuffers(1, &f->color);
		glBindRenderbuffer(GL_RENDERBUFFER, f->color);
		glRenderbufferStorage(GL_RENDERBUFFER, color_format, w, h);
		glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
					  GL_RENDERBUFFER, f->color);
	}
	if (depth_format) {
		glGenRenderbuffers(1, &f->depth);
		glBindRenderbuffer(GL_RENDERBUFFER, f->depth);
		glRenderbufferStorage(GL_RENDERBUFFER, depth_format, w, h);
		glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
					  GL_RENDERBUFFER, f->depth);
		if (depth_format == GL_DEPTH24_STENCIL8_OES)
			glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
						  GL_RENDERBUFFER, f->depth);
	}
	st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
	if (st != GL_FRAMEBUFFER_COMPLETE) {
		fprintf(stderr, "gltest: framebuffer incomplete: 0x%x\n", st);
		exit(1);
	}
	glViewport(0, 0, w, h);
}

void gl_fbo_fini(struct gl_fbo *f)
{
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(1, &f->fb);
	if (f->color)
		glDeleteRenderbuffers(1, &f->color);
	if (f->depth)
		glDeleteRenderbuffers(1, &f->depth);
	if (f->tex)
		glDeleteTextures(1, &f->tex);
}

void gl_draw(GLenum mode, int n, const float *pos, const float *col, const float *tc)
{
	const float *arrays[3] = { pos, col, tc };
	GLuint i;

	for (i = 0; i < 3; i++) {
		if (arrays[i]) {
			glVertexAttribPointer(i, 4, GL_FLOAT, GL_FALSE, 0, arrays[i]);
			glEnableVertexAttribArray(i);
		} else {
			glDisableVertexAttribArray(i);
		}
	}
	glDrawArrays(mode, 0, n);
}

int gl_dump(const char *path, int w, int h)
{
	size_t n = (size_t)w * h * 4;
	uint8_t *px = malloc(n);
	FILE *f;
	int ret = 0;

	if (!px)
		return -1;
	glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
	f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "gltest: %s: %s\n", path, strerror(errno));
		free(px);
		return -1;
	}
	fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\n"
		"TUPLTYPE RGB_ALPHA\nENDHDR\n", w, h);
	if (fwrite(px, 1, n, f) != n)
		ret = -1;
	if (fclose(f))
		ret = -1;
	free(px);
	return ret;
}

int gl_image_read(const char *path, struct gl_image *img)
{
	char line[128];
	int w = -1, h = -1, depth = 0;
	size_t n;
	FILE *f = fopen(path, "rb");

	memset(img, 0, sizeof(*img));
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f) || strcmp(line, "P7\n"))
		goto out_close;
	while (fgets(line, sizeof(line), f) && strcmp(line, "ENDHDR\n")) {
		sscanf(line, "WIDTH %d", &w);
		sscanf(line, "HEIGHT %d", &h);
		sscanf(line, "DEPTH %d", &depth);
	}
	if (w <= 0 || h <= 0 || w > 4096 || h > 4096 || depth != 4)
		goto out_close;
	n = (size_t)w * h * 4;
	img->px = malloc(n);
	if (!img->px || fread(img->px, 1, n, f) != n) {
		free(img->px);
		img->px = NULL;
		goto out_close;
	}
	img->w = w;
	img->h = h;
	fclose(f);
	return 0;
out_close:
	fclose(f);
	return -1;
}

void gl_image_free(struct gl_image *img)
{
	free(img->px);
	img->px = NULL;
}
