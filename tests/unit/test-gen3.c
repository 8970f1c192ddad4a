/*
 * Unit tests of lib/gen3, the hardware facts: registers and bits pinned to
 * their literal values (the kernel's i915_reg.h and IGT's intel_reg.h say
 * what they are; a test against the same constant could not catch a
 * wrong one).
 */
#include <strings.h>

#include "gemtest.h"
#include "regs.h"

struct pin {
	const char *name;
	uint32_t got, want;
};

#define PIN(name, want)	{ #name, (uint32_t)(name), (want) }

static void check_pins(const struct pin *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		gt_assert_f(p[i].got == p[i].want, "%s is 0x%08x, not 0x%08x",
			    p[i].name, p[i].got, p[i].want);
}

static const struct pin register_pins[] = {
	PIN(GEN3_DEVID, 0x2772),
	PIN(PRB0_TAIL, 0x2030),
	PIN(PRB0_HEAD, 0x2034),
	PIN(PRB0_START, 0x2038),
	PIN(PRB0_CTL, 0x203c),
	PIN(HWS_PGA, 0x2080),
	PIN(IPEIR, 0x2088),
	PIN(IPEHR, 0x208c),
	PIN(INSTDONE, 0x2090),
	PIN(NOPID, 0x2094),
	PIN(HWSTAM, 0x2098),
	PIN(IER, 0x20a0),
	PIN(IIR, 0x20a4),
	PIN(IMR, 0x20a8),
	PIN(ISR, 0x20ac),
	PIN(EIR, 0x20b0),
	PIN(EMR, 0x20b4),
	PIN(ESR, 0x20b8),
	PIN(INSTPM, 0x20c0),
	PIN(ACTHD, 0x20c8),
	PIN(PGTBL_CTL, 0x2020),
	PIN(PGTBL_ER, 0x2024),
	PIN(FENCE_REG_830_0, 0x2000),
	PIN(FENCE_REG_945_8, 0x3000),
	PIN(I915_GEM_HWS_INDEX, 0x20),
};

static const struct pin bit_pins[] = {
	PIN(TAIL_ADDR, 0x001ffff8),
	PIN(HEAD_ADDR, 0x001ffffc),
	PIN(HEAD_WRAP_COUNT, 0xffe00000),
	PIN(HEAD_WRAP_ONE, 0x00200000),
	PIN(RING_NR_PAGES, 0x001ff000),
	PIN(RING_VALID, 1u << 0),
	PIN(RING_WAIT, 1u << 11),
	PIN(I915_USER_INTERRUPT, 1u << 1),
	/* It was bit 11 (plane A flip pending) until issue 13. */
	PIN(I915_RENDER_COMMAND_PARSER_ERROR_INTERRUPT, 1u << 15),
	PIN(I915_ERROR_PAGE_TABLE, 1u << 4),
	PIN(I915_ERROR_MEMORY_REFRESH, 1u << 1),
	PIN(I915_ERROR_INSTRUCTION, 1u << 0),
	/* It was bit 4 (display A's PTE) until issue 13. */
	PIN(PGTBL_ER_RENDER_PTE, 1u << 20),
	PIN(PGTBL_ERR_CS_INSTRUCTION_GTT_PTE, 1u << 20),
	PIN(INSTDONE_IDLE, 0x7fffffc0),
	PIN(IP_DONE, 1u << 26),
	PIN(I830_FENCE_START_MASK, 0x07f80000),
	PIN(I830_FENCE_TILING_Y_SHIFT, 12),
	PIN(I830_FENCE_PITCH_SHIFT, 4),
	PIN(I830_FENCE_REG_VALID, 1u << 0),
	PIN(I915_FENCE_START_MASK, 0x0ff00000),
	PIN(I915_FENCE_MAX_PITCH_VAL, 4),
};

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	gemtest_subtest("register-offsets")
		check_pins(register_pins, sizeof(register_pins) / sizeof(register_pins[0]));

	gemtest_subtest("register-bits")
		check_pins(bit_pins, sizeof(bit_pins) / sizeof(bit_pins[0]));

	gemtest_subtest("fence-registers") {
		gt_assert_eq(fence_reg_offset(0), 0x2000);
		gt_assert_eq(fence_reg_offset(7), 0x201c);
		gt_assert_eq(fence_reg_offset(8), 0x3000);
		gt_assert_eq(fence_reg_offset(15), 0x301c);
		/* 1 MiB on 915 is size value 0, 1 MiB on 830 is 1 (512 KiB units). */
		gt_assert_eq(I915_FENCE_SIZE_BITS(1u << 20), 0 << 8);
		gt_assert_eq(I915_FENCE_SIZE_BITS(64u << 20), 6 << 8);
		gt_assert_eq(I830_FENCE_SIZE_BITS(1u << 20), 1 << 8);
	}

	return gemtest_exit();
}
