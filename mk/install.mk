# make install, make uninstall (docs/install.md): the tools, libraries,
# headers, runtime, firmware and data of the build tree into PREFIX
# (default /usr/local), below DESTDIR (default empty: a staging directory
# for packagers and for tests/install/suite). The layout below PREFIX is
# fixed (no BINDIR, LIBDIR...): the installed tools find their resources
# relative to their own directory, PREFIX/bin, as they do in the build tree
# from build/bin, so an installed tree also works where it is staged.
#
# Products: the man pages, build/share/man/man1/*.1 (built by make; the
#           shared libnicoll that install copies is mk/host.mk's).
# Targets:  install, uninstall (install-dest, install's first step).
# Suites:   tests/install/suite.
# Read after every room whose products it installs (EMU_QEMU, DISSECTOR,
# NCL_PCI_SO in INSTALL_DEPS).
PREFIX  ?= /usr/local
DESTDIR ?=

I_BIN     = $(DESTDIR)$(PREFIX)/bin
I_MAN1    = $(DESTDIR)$(PREFIX)/share/man/man1
I_LIB     = $(DESTDIR)$(PREFIX)/lib
I_PC      = $(DESTDIR)$(PREFIX)/lib/pkgconfig
I_INC     = $(DESTDIR)$(PREFIX)/include
I_LIBEXEC = $(DESTDIR)$(PREFIX)/libexec/nicoll
I_DATA    = $(DESTDIR)$(PREFIX)/share/nicoll
# The directories that are the project's alone: uninstall removes them once
# empty (bin, lib, include, share/man/man1 ... belong to everyone).
I_OWN_DIRS = $(I_LIB)/lanai $(I_INC)/nicoll $(I_INC)/lanai $(I_INC)/nicoll-mpi $(I_LIBEXEC) \
             $(I_DATA)/firmware $(I_DATA)/wireshark $(I_DATA)/promela $(I_DATA)/profiles $(I_DATA)

# Every tool of build/bin, each with a man page made by help2man from its
# own --help and --version; the NAME line of the page is here.
INSTALL_TOOLS := lanai-cc lanai-ld lanai-iss lanai-qemu lanai-run lanai-topo lanai-profile \
                 lanai-flash lanai-flash-cluster lanai-mpicc lanai-mpirun lanai-timeline lanai-order \
                 nicvm-check
MAN_NAME_lanai-cc            := compile and link C and assembly for the LANai
MAN_NAME_lanai-ld            := link LANai objects and archives into an ELF, a flat image and a map
MAN_NAME_lanai-iss           := run a LANai program on the reference interpreter
MAN_NAME_lanai-qemu          := run a LANai program on the LANai test machine of QEMU
MAN_NAME_lanai-run           := run an emulated Myrinet cluster of LANai 9 NICs and hosts
MAN_NAME_lanai-topo          := make and check Myrinet topologies and their routes
MAN_NAME_lanai-profile       := check and print platform profiles of the emulator
MAN_NAME_lanai-flash         := load firmware onto a LANai 9 board through its PCI window
MAN_NAME_lanai-flash-cluster := load firmware onto the LANai 9 boards of many hosts at once
MAN_NAME_lanai-mpicc         := compile and link an MPI program for the emulated cluster
MAN_NAME_lanai-mpirun        := run an MPI program on the emulated cluster
MAN_NAME_lanai-timeline      := turn a lanai-run run into a Chrome/Perfetto timeline
MAN_NAME_lanai-order         := orderings, k-binomial trees and their link contention on a network
MAN_NAME_nicvm-check         := compile and verify NICVM modules as the NIC does, with their worst case
MAN_DIR   := $(BUILD)/share/man/man1
MAN_PAGES := $(addprefix $(MAN_DIR)/,$(addsuffix .1,$(INSTALL_TOOLS)))

# The firmware a user loads: the MCP for 2 MB boards, 1 MB boards, LANai
# 9.0/9.1 parts and 1024-node clusters (not the broken variants the tests
# build, nor the measurement variant mcp_mcstore).
INSTALL_FIRMWARE := $(BUILD)/firmware/mcp.img $(BUILD)/firmware/mcp_1m.img \
                    $(BUILD)/firmware/mcp-lanai9.0.img $(BUILD)/firmware/mcp_1024.img
INSTALL_LIBS     := $(BUILD)/lib/libnicoll-emu.a $(BUILD)/lib/libnicoll-pci.a $(BUILD)/lib/libmpi-emu.a
INSTALL_RT       := $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a
INSTALL_RT_HDRS  := $(BUILD)/include/lanai/lanai-rt.h $(BUILD)/include/lanai/lanai-testmachine.h
INSTALL_MPI_HDRS := host/mpi/mpi.h host/mpi/mpi_objects.h   # mpi.h and the header it includes
INSTALL_MODELS   := $(wildcard spec/promela/*.pml) spec/promela/EXPECTED
INSTALL_PROFILES := $(wildcard lanai-emu/profiles/*.profile lanai-emu/profiles/*.postal)

ALL_TARGETS  += $(MAN_PAGES)
CHECK_SUITES += tests/install/suite

# help2man takes the synopsis from a first line "Usage: ..."; the tools
# write "usage: ..." (their usage errors print the same text, and the tests
# read it so), so help2man runs the tool through a one-line filter that
# capitalises that word of --help's first line, and nothing else.
$(MAN_PAGES): $(MAN_DIR)/%.1: $(BIN)/% mk/install.mk
	@command -v help2man > /dev/null || { echo "$@: help2man is not installed (make deps)" >&2; exit 1; }
	@mkdir -p $(@D) $(BUILD)/man-help
	printf '#!/bin/sh\n"%s" "$$@" | sed "1s/^usage:/Usage:/"\n' '$(CURDIR)/$(BIN)/$*' > $(BUILD)/man-help/$*
	chmod +x $(BUILD)/man-help/$*
	help2man --no-info --name='$(MAN_NAME_$*)' --output=$@.tmp $(BUILD)/man-help/$*
	mv $@.tmp $@

INSTALL_DEPS := $(addprefix $(BIN)/,$(INSTALL_TOOLS)) $(MAN_PAGES) $(INSTALL_LIBS) $(NCL_PCI_SO) \
                $(INSTALL_RT) $(INSTALL_RT_HDRS) $(EMU_QEMU) \
                $(INSTALL_FIRMWARE) $(DISSECTOR) host/lib/nicoll-emu.pc.in host/lib/nicoll-pci.pc.in

.PHONY: install uninstall install-dest

# A PREFIX that is not absolute, or a DESTDIR/PREFIX that cannot be made or
# written, is refused before anything is copied, naming it.
## install-dest: (install's first step) refuse a PREFIX that is not absolute or a DESTDIR/PREFIX not writable
install-dest:
	@case '$(PREFIX)' in /*) ;; *) echo "make install: PREFIX '$(PREFIX)' is not an absolute path" >&2; exit 2 ;; esac
	@mkdir -p '$(DESTDIR)$(PREFIX)' 2> /dev/null && [ -w '$(DESTDIR)$(PREFIX)' ] || \
	    { echo "make install: cannot write into '$(DESTDIR)$(PREFIX)' (DESTDIR '$(DESTDIR)', PREFIX '$(PREFIX)')" >&2; exit 2; }

## install: build, then copy into DESTDIR/PREFIX (PREFIX=/usr/local; docs/install.md)
install: $(INSTALL_DEPS) install-dest
	install -d $(I_BIN) $(I_MAN1) $(I_LIB) $(I_PC) $(I_INC) $(I_OWN_DIRS)
	install -m 755 $(addprefix $(BIN)/,$(INSTALL_TOOLS)) $(I_BIN)
	install -m 644 $(MAN_PAGES) $(I_MAN1)
	install -m 644 $(INSTALL_LIBS) $(I_LIB)
	install -m 755 $(NCL_PCI_SO) $(I_LIB)
	ln -sf libnicoll-pci.so.$(NC_VERSION) $(I_LIB)/libnicoll-pci.so.$(NCL_SO_MAJOR)
	ln -sf libnicoll-pci.so.$(NCL_SO_MAJOR) $(I_LIB)/libnicoll-pci.so
	sed 's|@PREFIX@|$(PREFIX)|; s|@VERSION@|$(NC_VERSION)|' host/lib/nicoll-emu.pc.in > $(I_PC)/nicoll-emu.pc
	sed 's|@PREFIX@|$(PREFIX)|; s|@VERSION@|$(NC_VERSION)|' host/lib/nicoll-pci.pc.in > $(I_PC)/nicoll-pci.pc
	install -m 644 $(INSTALL_RT) $(I_LIB)/lanai
	install -m 644 host/lib/nicoll.h $(I_INC)
	install -m 644 $(CONTRACT_HDRS) $(I_INC)/nicoll
	install -m 644 $(INSTALL_RT_HDRS) $(I_INC)/lanai
	install -m 644 $(INSTALL_MPI_HDRS) $(I_INC)/nicoll-mpi
	install -m 755 $(EMU_QEMU) $(I_LIBEXEC)
	install -m 644 $(INSTALL_FIRMWARE) $(I_DATA)/firmware
	install -m 644 $(DISSECTOR) $(I_DATA)/wireshark
	install -m 644 $(INSTALL_MODELS) $(I_DATA)/promela
	install -m 644 $(INSTALL_PROFILES) $(I_DATA)/profiles

# Exactly the files install puts there, then the project's own directories
# once they are empty.
## uninstall: remove exactly what install put into DESTDIR/PREFIX
uninstall:
	rm -f $(addprefix $(I_BIN)/,$(INSTALL_TOOLS)) $(addprefix $(I_MAN1)/,$(notdir $(MAN_PAGES)))
	rm -f $(addprefix $(I_LIB)/,$(notdir $(INSTALL_LIBS) $(NCL_PCI_SO)) \
	      libnicoll-pci.so.$(NCL_SO_MAJOR) libnicoll-pci.so) $(I_PC)/nicoll-emu.pc $(I_PC)/nicoll-pci.pc
	rm -f $(addprefix $(I_LIB)/lanai/,$(notdir $(INSTALL_RT))) $(I_INC)/nicoll.h \
	      $(addprefix $(I_INC)/nicoll/,$(notdir $(CONTRACT_HDRS))) $(addprefix $(I_INC)/lanai/,$(notdir $(INSTALL_RT_HDRS))) \
	      $(addprefix $(I_INC)/nicoll-mpi/,$(notdir $(INSTALL_MPI_HDRS))) $(I_LIBEXEC)/$(notdir $(EMU_QEMU))
	rm -f $(addprefix $(I_DATA)/firmware/,$(notdir $(INSTALL_FIRMWARE))) $(I_DATA)/wireshark/$(notdir $(DISSECTOR)) \
	      $(addprefix $(I_DATA)/promela/,$(notdir $(INSTALL_MODELS))) $(addprefix $(I_DATA)/profiles/,$(notdir $(INSTALL_PROFILES)))
	for d in $(I_OWN_DIRS); do [ ! -d "$$d" ] || rmdir --ignore-fail-on-non-empty "$$d"; done
