/* commprof: data symbols and sections of an ELF object (for static objects). */
#ifndef CP_ELFSYMS_H
#define CP_ELFSYMS_H

#include "pub_tool_basics.h"

/* versioned: the symbol table gave the name a version (stdout@GLIBC_2.2.5: a
   library's variable the executable holds, a copy relocation); name is
   without it */
typedef struct { HChar* name; Addr addr; SizeT size; Bool versioned; } CpElfSym;
typedef struct { HChar* name; Addr addr; SizeT size; Bool writable; } CpElfSection;

typedef struct {
   CpElfSym*     syms;       /* STT_OBJECT symbols with a size, by address, no overlaps at one address */
   UInt          n_syms;
   CpElfSection* sections;   /* allocated non-code sections */
   UInt          n_sections;
   CpElfSym*     funcs;      /* STT_FUNC symbols, by address (size may be 0) */
   UInt          n_funcs;
   /* thread-local variables (STT_TLS symbols with a size): addr is the
      offset in the object's TLS block, by offset; tls_tp_offset is where the
      block of the main executable starts below the thread pointer (x86-64:
      the block ends at the thread pointer, aligned, as the linker and
      glibc's ld.so place it); 0 without a PT_TLS segment */
   CpElfSym*     tls;
   UInt          n_tls;
   ULong         tls_tp_offset;
   ULong         tls_size;   /* of the segment (p_memsz) */
   /* the PLT sections (.plt, .plt.sec, .plt.got): [plt_lo[i], plt_hi[i]) */
   Addr          plt_lo[4], plt_hi[4];
   UInt          n_plts;
} CpElfSyms;

/* Read the data symbols and sections of the ELF file at path, loaded with
   the given bias (run-time address minus link-time address). */
Bool cp_elf_read_data_symbols(const HChar* path, Addr bias, CpElfSyms* out);
/* Only the layout of the ELF file at path, from its program headers: its
   TLS segment (tls_tp_offset and tls_size above, 0 without one), its entry
   point (loaded with bias) and the link-time address of its load segment at
   file offset 0 (load_lo, (Addr)-1 if none). */
Bool cp_elf_read_layout(const HChar* path, Addr bias, ULong* tp_offset, ULong* size, Addr* entry,
                        Addr* load_lo);
/* The symbol whose [addr, addr+size) holds a, or NULL. */
const CpElfSym*     cp_elf_find_sym(const CpElfSyms* s, Addr a);
/* The first symbol starting above a, or NULL. */
const CpElfSym*     cp_elf_next_sym(const CpElfSyms* s, Addr a);
/* The function symbol holding a, or NULL (a symbol of size 0, such as
   _init's, holds nothing: where it ends is not known). */
const CpElfSym*     cp_elf_find_func(const CpElfSyms* s, Addr a);
/* The name of the function symbol at exactly a, or NULL. */
const HChar*        cp_elf_func_name_at(const CpElfSyms* s, Addr a);
/* Is a in a PLT section? */
Bool cp_elf_in_plt(const CpElfSyms* s, Addr a);
/* The section holding a, or NULL. */
const CpElfSection* cp_elf_find_section(const CpElfSyms* s, Addr a);

#endif
