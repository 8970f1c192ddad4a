/*
 * A small zlib (RFC 1950) / DEFLATE (RFC 1951) decoder for the ":" buffer
 * lines of error states, written from the RFCs so that gemdump needs no
 * zlib.  Slow and simple is fine: error states are small.  Every read is
 * checked against the input, every back-reference against the output,
 * and the output against a cap.
 */
#include <errno.h>
#include <string.h>

#include "ascii85.h"

struct bits {
	const uint8_t *p;
	size_t len, pos;	/* pos: next byte */
	uint32_t buf;
	int cnt;
};

/* n <= 16 bits, LSB first; -1 when the input ends. */
static int get(struct bits *s, int n, uint32_t *out)
{
	while (s->cnt < n) {
		if (s->pos >= s->len)
			return -1;
		s->buf |= (uint32_t)s->p[s->pos++] << s->cnt;
		s->cnt += 8;
	}
	*out = s->buf & ((1u << n) - 1);
	s->buf >>= n;
	s->cnt -= n;
	return 0;
}

/* A canonical Huffman code: how many codes of each length, and the
 * symbols in code order. */
struct huff {
	uint16_t count[16];
	uint16_t sym[320];
};

static int build(struct huff *h, const uint8_t *lens, int n)
{
	uint16_t offs[16];
	int left = 1, i;

	memset(h->count, 0, sizeof(h->count));
	for (i = 0; i < n; i++)
		h->count[lens[i]]++;
	for (i = 1; i < 16; i++) {
		left = left * 2 - h->count[i];
		if (left < 0)
			return -1;	/* over-subscribed */
	}
	offs[1] = 0;
	for (i = 1; i < 15; i++)
		offs[i + 1] = (uint16_t)(offs[i] + h->count[i]);
	for (i = 0; i < n; i++)
		if (lens[i])
			h->sym[offs[lens[i]]++] = (uint16_t)i;
	return 0;
}

static int decode(struct bits *s, const struct huff *h)
{
	int code = 0, first = 0, index = 0, len;
	uint32_t b;

	for (len = 1; len < 16; len++) {
		if (get(s, 1, &b))
			return -1;
		code |= (int)b;
		if (code - first < h->count[len])
			return h->sym[index + code - first];
		index += h->count[len];
		first = (first + h->count[len]) << 1;
		code <<= 1;
	}
	return -1;
}

static const uint16_t lbase[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27,
	31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t lext[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3,
	3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dbase[30] = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129,
	193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385,
	24577 };
static const uint8_t dext[30] = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8,
	8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

static int codes(struct bits *s, const struct huff *lit, const struct huff *dist,
		 struct strbuf *out, size_t max)
{
	for (;;) {
		int sym = decode(s, lit);
		uint32_t e, len, d;
		size_t from;

		if (sym < 0)
			return -EINVAL;
		if (sym < 256) {
			if (out->len >= max)
				return -EFBIG;
			if (strbuf_addch(out, sym))
				return -ENOMEM;
			continue;
		}
		if (sym == 256)
			return 0;
		sym -= 257;
		if (sym >= 29 || get(s, lext[sym], &e))
			return -EINVAL;
		len = lbase[sym] + e;
		sym = decode(s, dist);
		if (sym < 0 || sym >= 30 || get(s, dext[sym], &e))
			return -EINVAL;
		d = dbase[sym] + e;
		if (d > out->len)
			return -EINVAL;
		if (len > max - out->len)
			return -EFBIG;
		if (strbuf_grow(out, len))
			return -ENOMEM;
		/* Byte by byte: the source may overlap what we write. */
		from = out->len - d;
		while (len--)
			out->buf[out->len++] = out->buf[from++];
		out->buf[out->len] = '\0';
	}
}

static int fixed(struct bits *s, struct strbuf *out, size_t max)
{
	static struct huff lit, dist;
	static int built;
	uint8_t lens[288];
	int i;

	if (!built) {
		for (i = 0; i < 288; i++)
			lens[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
		build(&lit, lens, 288);
		memset(lens, 5, 30);
		build(&dist, lens, 30);
		built = 1;
	}
	return codes(s, &lit, &dist, out, max);
}

static int dynamic(struct bits *s, struct strbuf *out, size_t max)
{
	static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3,
		13, 2, 14, 1, 15 };
	uint32_t nlen, ndist, ncode, v, rep;
	struct huff lit, dist, cl;
	uint8_t lens[320];
	int i, sym;

	if (get(s, 5, &nlen) || get(s, 5, &ndist) || get(s, 4, &ncode))
		return -EINVAL;
	nlen += 257;
	ndist += 1;
	ncode += 4;
	if (nlen > 286 || ndist > 30)
		return -EINVAL;
	memset(lens, 0, sizeof(lens));
	for (i = 0; i < (int)ncode; i++) {
		if (get(s, 3, &v))
			return -EINVAL;
		lens[order[i]] = (uint8_t)v;
	}
	if (build(&cl, lens, 19))
		return -EINVAL;
	for (i = 0; i < (int)(nlen + ndist);) {
		uint8_t val = 0;

		sym = decode(s, &cl);
		if (sym < 0)
			return -EINVAL;
		if (sym < 16) {
			lens[i++] = (uint8_t)sym;
			continue;
		}
		if (sym == 16) {
			if (!i || get(s, 2, &rep))
				return -EINVAL;
			val = lens[i - 1];
			rep += 3;
		} else if (sym == 17) {
			if (get(s, 3, &rep))
				return -EINVAL;
			rep += 3;
		} else {
			if (get(s, 7, &rep))
				return -EINVAL;
			rep += 11;
		}
		if (i + (int)rep > (int)(nlen + ndist))
			return -EINVAL;
		while (rep--)
			lens[i++] = val;
	}
	if (!lens[256] || build(&lit, lens, (int)nlen) || build(&dist, lens + nlen, (int)ndist))
		return -EINVAL;
	return codes(s, &lit, &dist, out, max);
}

static int stored(struct bits *s, struct strbuf *out, size_t max)
{
	uint32_t len, nlen;

	s->buf = 0;
	s->cnt = 0;		/* to a byte boundary */
	if (s->len - s->pos < 4)
		return -EINVAL;
	len = s->p[s->pos] | (uint32_t)s->p[s->pos + 1] << 8;
	nlen = s->p[s->pos + 2] | (uint32_t)s->p[s->pos + 3] << 8;
	s->pos += 4;
	if (len != (~nlen & 0xffff) || len > s->len - s->pos)
		return -EINVAL;
	if (len > max - out->len)
		return -EFBIG;
	if (strbuf_add(out, s->p + s->pos, len))
		return -ENOMEM;
	s->pos += len;
	return 0;
}

int gd_inflate(const uint8_t *in, size_t len, struct strbuf *out, size_t max)
{
	struct bits s = { in, len, 2, 0, 0 };
	uint32_t last, type, a = 1, b = 0, want;
	size_t i, start = out->len;
	int ret;

	if (len < 6 || (in[0] & 0x0f) != 8 || (in[0] * 256u + in[1]) % 31 || (in[1] & 0x20))
		return -EINVAL;
	do {
		if (get(&s, 1, &last) || get(&s, 2, &type))
			return -EINVAL;
		if (type == 0)
			ret = stored(&s, out, max);
		else if (type == 1)
			ret = fixed(&s, out, max);
		else if (type == 2)
			ret = dynamic(&s, out, max);
		else
			ret = -EINVAL;
		if (ret)
			return ret;
	} while (!last);
	/* Adler-32 of the output, big-endian, after the last whole byte. */
	if (s.len - s.pos < 4)
		return -EINVAL;
	want = (uint32_t)s.p[s.pos] << 24 | (uint32_t)s.p[s.pos + 1] << 16 |
	       (uint32_t)s.p[s.pos + 2] << 8 | s.p[s.pos + 3];
	for (i = start; i < out->len; i++) {
		a = (a + (uint8_t)out->buf[i]) % 65521;
		b = (b + a) % 65521;
	}
	return (b << 16 | a) == want ? 0 : -EINVAL;
}
