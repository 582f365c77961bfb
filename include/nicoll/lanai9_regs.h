/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LANai 9 interface as firmware and host see it (docs/lanai9-nic.md):
 * special-register offsets, ISR bits, the board window of the PCI BAR, the
 * control register and the EEPROM layout. Pure definitions, shared by the
 * firmware (LANai side), the host library and the emulator.
 */
#ifndef NICOLL_LANAI9_REGS_H
#define NICOLL_LANAI9_REGS_H

#include <stdint.h>

/* ---- LANai side: special registers at 0xFFFFFE00 + offset ------------- */
#define L9_SPECIAL_BASE 0xFFFFFE00u
/* A special register as the LANai's own code reaches it (firmware side;
 * the host reaches the same registers at L9_BAR_SPECIAL + offset). */
#define L9_SPECIAL(off) (*(volatile uint32_t *)(L9_SPECIAL_BASE + (off)))
#define L9_ISR      0x050u  /* interface status; write 1 to clear */
#define L9_EIMR     0x058u  /* host interrupt mask: ISR & EIMR -> PCI interrupt */
#define L9_IT0      0x060u  /* interval timer 0 (counts down, TIME0 at 0) */
#define L9_RTC      0x068u  /* real-time clock, 1 tick = 0.5 us */
#define L9_LAR      0x070u
#define L9_CPUC     0x078u
#define L9_PULSE    0x0B8u  /* 2: start L2E DMA chain, 4: start E2L */
#define L9_IT1      0x0C0u
#define L9_IT2      0x0C8u
#define L9_RMW      0x0D0u
#define L9_RMC      0x0D8u
#define L9_RMP      0x0E0u  /* receive DMA pointer */
#define L9_RML      0x0E8u  /* receive DMA limit */
#define L9_SMP      0x0F0u  /* send DMA pointer */
#define L9_SMH      0x0F8u
#define L9_SML      0x100u  /* send limit, more follows */
#define L9_SMLT     0x108u  /* send limit with tail */
#define L9_SMC      0x110u
#define L9_SA       0x118u  /* send align */
#define L9_MYRINET  0x130u  /* link control */
#define L9_DEBUG    0x138u
#define L9_LED      0x140u
#define L9_GM_MP    0x150u
#define L9_CLOCK    0x1F8u  /* clock value from the EEPROM */

/* ISR / EIMR bits */
#define L9_ISR_DEBUG        (1u << 31)
#define L9_ISR_HOST_SIG     (1u << 30)
#define L9_ISR_LANAI_SIG    (1u << 29)
#define L9_ISR_BEAT_MISSED  (1u << 24)
#define L9_ISR_TX_BLOCKED   (1u << 23)
#define L9_ISR_TX_TOO_LONG  (1u << 22)
#define L9_ISR_RX_TOO_LONG  (1u << 21)
#define L9_ISR_ILLEGAL_RX   (1u << 20)
#define L9_ISR_BEAT_RX      (1u << 19)
#define L9_ISR_DATA_RX      (1u << 18)
#define L9_ISR_DATA_SENT    (1u << 17)
#define L9_ISR_LINK_DOWN    (1u << 16)
#define L9_ISR_PAR_INT      (1u << 15)
#define L9_ISR_MEM_INT      (1u << 14)
#define L9_ISR_TIME2        (1u << 13)
#define L9_ISR_WAKE0        (1u << 12)  /* host DMA done */
#define L9_ISR_NRES         (1u << 11)
#define L9_ISR_ORUN4        (1u << 10)
#define L9_ISR_ORUN2        (1u << 9)
#define L9_ISR_ORUN1        (1u << 8)
#define L9_ISR_TIME1        (1u << 7)
#define L9_ISR_TIME0        (1u << 6)
#define L9_ISR_WAKE2        (1u << 5)
#define L9_ISR_WAKE1        (1u << 4)
#define L9_ISR_SEND         (1u << 3)
#define L9_ISR_BUFF         (1u << 2)
#define L9_ISR_RECV         (1u << 1)
#define L9_ISR_HEAD         (1u << 0)

/* ---- host side: the 16 MB board window (one PCI BAR) ------------------ */
#define L9_BAR_SIZE      0x1000000u
#define L9_BAR_SRAM      0x000000u
#define L9_BAR_CONFIG    0x800000u
#define L9_BAR_CONTROL   0x800040u
#define L9_BAR_SPECIAL   0x804000u  /* + the special-register offsets above */
#define L9_BAR_DOORBELL  0x808000u  /* 4 KB each */
#define L9_BAR_EEPROM    0xA00000u

/* Control register: set/reset pairs (writing both of a pair is undefined). */
#define L9_CTL_RESET_OFF    (1u << 31)
#define L9_CTL_RESET_ON     (1u << 30)
#define L9_CTL_ERESET_OFF   (1u << 29)
#define L9_CTL_ERESET_ON    (1u << 28)
#define L9_CTL_BRESET_OFF   (1u << 27)
#define L9_CTL_BRESET_ON    (1u << 26)
#define L9_CTL_INT_ENABLE   (1u << 25)
#define L9_CTL_INT_DISABLE  (1u << 24)

/* EEPROM layout (offsets from L9_BAR_EEPROM). */
#define L9_EE_CLOCKVAL       0x00u  /* u32 */
#define L9_EE_CPU_VERSION    0x04u  /* u16 */
#define L9_EE_BOARD_ID       0x06u  /* 6 bytes */
#define L9_EE_SRAM_SIZE      0x0Cu  /* u32, bytes */
#define L9_EE_SERIAL         0x48u  /* u32 */
#define L9_EE_BOARD_LABEL    0x4Cu  /* 32 bytes */
#define L9_EE_MAX_LANAI_SPEED 0x6Cu /* u32 */

#define L9_PCI_VENDOR_MYRICOM 0x14C1u
#define L9_PCI_DEVICE_LANAI9  0x8043u

#endif
