/* commprof: data symbols and sections of an ELF object, read from its file.
 *
 * Valgrind's debug-info queries name the data symbol at an address but do not
 * give its size, and cannot list symbols; static objects need both.  So the
 * symbol table (.symtab, else .dynsym) and the section headers are read here
 * directly from the file with Valgrind's file functions.  Only 64-bit
 * little-endian ELF is understood. */

#include "cp_global.h"
#include "cp_elfsyms.h"

/* The few ELF64 definitions needed (from the ELF specification). */
typedef struct {
   UChar  e_ident[16];
   UShort e_type, e_machine;
   UInt   e_version;
   ULong  e_entry, e_phoff, e_shoff;
   UInt   e_flags;
   UShort e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} Elf64Ehdr;

typedef struct {
   UInt  p_type, p_flags;
   ULong p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
} Elf64Phdr;

#define PT_LOAD      1
#define PT_TLS       7

typedef struct {
   UInt  sh_name, sh_type;
   ULong sh_flags, sh_addr, sh_offset, sh_size;
   UInt  sh_link, sh_info;
   ULong sh_addralign, sh_entsize;
} Elf64Shdr;

typedef struct {
   UInt   st_name;
   UChar  st_info, st_other;
   UShort st_shndx;
   ULong  st_value, st_size;
} Elf64Sym;

#define SHT_SYMTAB   2
#define SHT_NOBITS   8
#define SHT_DYNSYM   11
#define SHF_WRITE    0x1
#define SHF_ALLOC    0x2
#define SHF_EXECINSTR 0x4
#define SHF_TLS      0x400
#define STT_OBJECT   1
#define STT_FUNC     2
#define STT_TLS      6
#define SHN_UNDEF    0
#define SHN_LORESERVE 0xff00

/* Read exactly n bytes at offset off; False on any failure. */
static Bool read_at(Int fd, ULong off, void* buf, SizeT n)
{
   if (VG_(lseek)(fd, (Off64T)off, VKI_SEEK_SET) != (Off64T)off) return False;
   SizeT got = 0;
   while (got < n) {
      Int r = VG_(read)(fd, (HChar*)buf + got, (Int)(n - got > 1 << 20 ? 1 << 20 : n - got));
      if (r <= 0) return False;
      got += (SizeT)r;
   }
   return True;
}

static Int cmp_sym(const void* a, const void* b)
{
   const CpElfSym* x = a;
   const CpElfSym* y = b;
   return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 : 0;
}

static HChar* copy_str(const HChar* tab, ULong tab_sz, UInt off)
{
   if (off >= tab_sz) return VG_(strdup)("cp.elf.name", "?");
   SizeT n = 0;
   while (off + n < tab_sz && tab[off + n]) n++;
   HChar* s = VG_(malloc)("cp.elf.name", n + 1);
   VG_(memcpy)(s, tab + off, n);
   s[n] = 0;
   return s;
}

/* A symbol's name without the version the linker may append to the names of
   dynamic symbols (_ZSt4cout@GLIBCXX_3.4, stdout@GLIBC_2.2.5, copied into the
   executable by a copy relocation): the name the program's source uses. */
static HChar* copy_sym_name(const HChar* tab, ULong tab_sz, UInt off, Bool* versioned)
{
   HChar* s = copy_str(tab, tab_sz, off);
   HChar* at = VG_(strchr)(s, '@');
   *versioned = at && at != s;
   if (*versioned) *at = 0;
   return s;
}

/* From the program headers of the object of header eh: its TLS segment's
   size, and where its block lies below the thread pointer if the object is
   the executable (glibc's _dl_determine_tlsoffset places the executable's
   block first, and the linker's TPOFF of local-exec code agrees), both 0 if
   none; and, if load_lo, the link-time address of its load segment at file
   offset 0. */
static void read_program_headers(Int fd, const Elf64Ehdr* eh, ULong* tp_offset, ULong* size,
                             Addr* load_lo)
{
   *tp_offset = *size = 0;
   if (load_lo) *load_lo = (Addr)-1;
   if (eh->e_phentsize != sizeof(Elf64Phdr) || eh->e_phnum == 0 || eh->e_phnum >= 1000) return;
   Elf64Phdr* ph = VG_(malloc)("cp.elf.ph", eh->e_phnum * sizeof(Elf64Phdr));
   if (read_at(fd, eh->e_phoff, ph, eh->e_phnum * sizeof(Elf64Phdr)))
      for (UInt i = 0; i < eh->e_phnum; i++) {
         if (ph[i].p_type == PT_LOAD && load_lo && ph[i].p_offset == 0 && ph[i].p_vaddr < *load_lo)
            *load_lo = (Addr)ph[i].p_vaddr;
         if (ph[i].p_type != PT_TLS || ph[i].p_memsz == 0 || ph[i].p_memsz > (1ULL << 40)) continue;
         ULong align = ph[i].p_align ? ph[i].p_align : 1;
         if (align & (align - 1)) continue;
         ULong first = (0 - (ph[i].p_vaddr & (align - 1))) & (align - 1);
         *tp_offset = ((ph[i].p_memsz - first + align - 1) & ~(align - 1)) + first;
         *size = ph[i].p_memsz;
      }
   VG_(free)(ph);
}

static Bool read_ehdr(Int fd, Elf64Ehdr* eh)
{
   return read_at(fd, 0, eh, sizeof(*eh))
          && eh->e_ident[0] == 0x7f && eh->e_ident[1] == 'E' && eh->e_ident[2] == 'L'
          && eh->e_ident[3] == 'F' && eh->e_ident[4] == 2 /* 64-bit */
          && eh->e_ident[5] == 1 /* little endian */;
}

Bool cp_elf_read_layout(const HChar* path, Addr bias, ULong* tp_offset, ULong* size, Addr* entry,
                        Addr* load_lo)
{
   *tp_offset = *size = 0;
   *entry = 0;
   *load_lo = (Addr)-1;
   SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
   if (sr_isError(r)) return False;
   Int fd = (Int)sr_Res(r);
   Elf64Ehdr eh;
   Bool ok = read_ehdr(fd, &eh);
   if (ok) {
      read_program_headers(fd, &eh, tp_offset, size, load_lo);
      *entry = eh.e_entry ? (Addr)eh.e_entry + bias : 0;
   }
   VG_(close)(fd);
   return ok;
}

Bool cp_elf_read_data_symbols(const HChar* path, Addr bias, CpElfSyms* out)
{
   VG_(memset)(out, 0, sizeof(*out));
   SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
   if (sr_isError(r)) return False;
   Int fd = (Int)sr_Res(r);
   Bool ok = False;
   Elf64Ehdr eh;
   Elf64Shdr* sh = NULL;
   HChar* shstr = NULL;
   HChar* strtab = NULL;
   Elf64Sym* syms = NULL;

   if (!read_ehdr(fd, &eh)
       || eh.e_shentsize != sizeof(Elf64Shdr) || eh.e_shnum == 0 || eh.e_shnum > 10000)
      goto done;
   sh = VG_(malloc)("cp.elf.sh", eh.e_shnum * sizeof(Elf64Shdr));
   if (!read_at(fd, eh.e_shoff, sh, eh.e_shnum * sizeof(Elf64Shdr))) goto done;
   if (eh.e_shstrndx >= eh.e_shnum) goto done;
   ULong shstr_sz = sh[eh.e_shstrndx].sh_size;
   if (shstr_sz > (1 << 24)) goto done;
   shstr = VG_(malloc)("cp.elf.shstr", shstr_sz + 1);
   if (!read_at(fd, sh[eh.e_shstrndx].sh_offset, shstr, shstr_sz)) goto done;
   shstr[shstr_sz] = 0;

   read_program_headers(fd, &eh, &out->tls_tp_offset, &out->tls_size, NULL);

   /* allocated, writable or read-only data sections (not code) */
   out->sections = VG_(malloc)("cp.elf.secs", eh.e_shnum * sizeof(CpElfSection));
   for (UInt i = 0; i < eh.e_shnum; i++) {
      if ((sh[i].sh_flags & SHF_ALLOC) && (sh[i].sh_flags & SHF_EXECINSTR) && sh[i].sh_size != 0
          && out->n_plts < 4 && sh[i].sh_name < shstr_sz
          && (VG_(strcmp)(shstr + sh[i].sh_name, ".plt") == 0
              || VG_(strcmp)(shstr + sh[i].sh_name, ".plt.sec") == 0
              || VG_(strcmp)(shstr + sh[i].sh_name, ".plt.got") == 0)) {
         out->plt_lo[out->n_plts] = (Addr)sh[i].sh_addr + bias;
         out->plt_hi[out->n_plts++] = (Addr)sh[i].sh_addr + bias + (Addr)sh[i].sh_size;
      }
      /* thread-local sections (.tdata, .tbss) are templates: their addresses
         overlap the sections after them */
      if (!(sh[i].sh_flags & SHF_ALLOC) || (sh[i].sh_flags & (SHF_EXECINSTR | SHF_TLS))
          || sh[i].sh_size == 0)
         continue;
      CpElfSection* s = &out->sections[out->n_sections++];
      s->name = copy_str(shstr, shstr_sz, sh[i].sh_name);
      s->addr = (Addr)sh[i].sh_addr + bias;
      s->size = (SizeT)sh[i].sh_size;
      s->writable = (sh[i].sh_flags & SHF_WRITE) != 0;
   }

   /* the symbol table: .symtab if present (it has the statics), else .dynsym */
   Int si = -1;
   for (UInt i = 0; i < eh.e_shnum; i++)
      if (sh[i].sh_type == SHT_SYMTAB) si = (Int)i;
   if (si < 0)
      for (UInt i = 0; i < eh.e_shnum; i++)
         if (sh[i].sh_type == SHT_DYNSYM) si = (Int)i;
   if (si >= 0 && sh[si].sh_link < eh.e_shnum && sh[si].sh_entsize == sizeof(Elf64Sym)
       && sh[si].sh_size <= (1ULL << 30)) {
      UInt nsym = (UInt)(sh[si].sh_size / sizeof(Elf64Sym));
      ULong str_sz = sh[sh[si].sh_link].sh_size;
      if (str_sz <= (1ULL << 30)) {
         syms = VG_(malloc)("cp.elf.syms", (nsym ? nsym : 1) * sizeof(Elf64Sym));
         strtab = VG_(malloc)("cp.elf.str", str_sz + 1);
         if (read_at(fd, sh[si].sh_offset, syms, nsym * sizeof(Elf64Sym))
             && read_at(fd, sh[sh[si].sh_link].sh_offset, strtab, str_sz)) {
            strtab[str_sz] = 0;
            out->syms = VG_(malloc)("cp.elf.out", (nsym ? nsym : 1) * sizeof(CpElfSym));
            out->funcs = VG_(malloc)("cp.elf.fn", (nsym ? nsym : 1) * sizeof(CpElfSym));
            out->tls = VG_(malloc)("cp.elf.tls", (nsym ? nsym : 1) * sizeof(CpElfSym));
            for (UInt i = 0; i < nsym; i++) {
               UInt type = syms[i].st_info & 0xf;
               if (type == STT_FUNC && syms[i].st_shndx != SHN_UNDEF
                   && syms[i].st_shndx < SHN_LORESERVE && syms[i].st_value != 0) {
                  CpElfSym* f = &out->funcs[out->n_funcs++];
                  f->name = copy_sym_name(strtab, str_sz, syms[i].st_name, &f->versioned);
                  f->addr = (Addr)syms[i].st_value + bias;
                  f->size = (SizeT)syms[i].st_size;
               }
               if (type == STT_TLS && out->tls_tp_offset != 0 && syms[i].st_size != 0
                   && syms[i].st_shndx != SHN_UNDEF && syms[i].st_shndx < SHN_LORESERVE
                   && syms[i].st_value + syms[i].st_size <= out->tls_size
                   && syms[i].st_value + syms[i].st_size > syms[i].st_value) {
                  CpElfSym* t = &out->tls[out->n_tls++];
                  t->name = copy_sym_name(strtab, str_sz, syms[i].st_name, &t->versioned);
                  t->addr = (Addr)syms[i].st_value;
                  t->size = (SizeT)syms[i].st_size;
               }
               if (type != STT_OBJECT || syms[i].st_size == 0
                   || syms[i].st_shndx == SHN_UNDEF || syms[i].st_shndx >= SHN_LORESERVE)
                  continue;
               CpElfSym* o = &out->syms[out->n_syms++];
               o->name = copy_sym_name(strtab, str_sz, syms[i].st_name, &o->versioned);
               o->addr = (Addr)syms[i].st_value + bias;
               o->size = (SizeT)syms[i].st_size;
            }
            VG_(ssort)(out->syms, out->n_syms, sizeof(CpElfSym), cmp_sym);
            VG_(ssort)(out->funcs, out->n_funcs, sizeof(CpElfSym), cmp_sym);
            VG_(ssort)(out->tls, out->n_tls, sizeof(CpElfSym), cmp_sym);
            /* aliases and overlaps: keep the first of the symbols at one offset */
            UInt kt = 0;
            for (UInt i = 0; i < out->n_tls; i++) {
               if (kt > 0 && out->tls[kt - 1].addr + out->tls[kt - 1].size > out->tls[i].addr) {
                  VG_(free)(out->tls[i].name);
                  continue;
               }
               out->tls[kt++] = out->tls[i];
            }
            out->n_tls = kt;
            /* aliases (two names, one address): keep the first name */
            UInt k = 0;
            for (UInt i = 0; i < out->n_syms; i++) {
               if (k > 0 && out->syms[k - 1].addr == out->syms[i].addr) {
                  if (out->syms[i].size > out->syms[k - 1].size)
                     out->syms[k - 1].size = out->syms[i].size;
                  out->syms[k - 1].versioned |= out->syms[i].versioned;
                  VG_(free)(out->syms[i].name);
                  continue;
               }
               out->syms[k++] = out->syms[i];
            }
            out->n_syms = k;
         }
      }
   }
   ok = True;
done:
   if (sh) VG_(free)(sh);
   if (shstr) VG_(free)(shstr);
   if (strtab) VG_(free)(strtab);
   if (syms) VG_(free)(syms);
   VG_(close)(fd);
   return ok;
}

/* How many of the n symbols of v (by address) start at or below a. */
static UInt count_at_or_below(const CpElfSym* v, UInt n, Addr a)
{
   UInt lo = 0, hi = n;
   while (lo < hi) {
      UInt mid = lo + (hi - lo) / 2;
      if (v[mid].addr <= a) lo = mid + 1; else hi = mid;
   }
   return lo;
}

const CpElfSym* cp_elf_find_sym(const CpElfSyms* s, Addr a)
{
   /* last symbol starting at or below a */
   UInt lo = count_at_or_below(s->syms, s->n_syms, a);
   if (lo == 0) return NULL;
   const CpElfSym* c = &s->syms[lo - 1];
   return a - c->addr < c->size ? c : NULL;
}

const CpElfSym* cp_elf_next_sym(const CpElfSyms* s, Addr a)
{
   UInt lo = count_at_or_below(s->syms, s->n_syms, a);
   return lo < s->n_syms ? &s->syms[lo] : NULL;
}

const CpElfSym* cp_elf_find_func(const CpElfSyms* s, Addr a)
{
   UInt lo = count_at_or_below(s->funcs, s->n_funcs, a);
   if (lo == 0) return NULL;
   const CpElfSym* f = &s->funcs[lo - 1];
   /* of symbols at one address, the first (with the largest size) */
   while (f > s->funcs && f[-1].addr == f->addr) f--;
   SizeT size = 0;
   for (const CpElfSym* g = f; g < s->funcs + s->n_funcs && g->addr == f->addr; g++)
      if (g->size > size) size = g->size;
   return a - f->addr < size ? f : NULL;
}

const HChar* cp_elf_func_name_at(const CpElfSyms* s, Addr a)
{
   /* the first of the symbols at a: after those starting below it */
   UInt lo = a ? count_at_or_below(s->funcs, s->n_funcs, a - 1) : 0;
   return lo < s->n_funcs && s->funcs[lo].addr == a ? s->funcs[lo].name : NULL;
}

Bool cp_elf_in_plt(const CpElfSyms* s, Addr a)
{
   for (UInt i = 0; i < s->n_plts; i++)
      if (a >= s->plt_lo[i] && a < s->plt_hi[i]) return True;
   return False;
}

const CpElfSection* cp_elf_find_section(const CpElfSyms* s, Addr a)
{
   for (UInt i = 0; i < s->n_sections; i++)
      if (a - s->sections[i].addr < s->sections[i].size) return &s->sections[i];
   return NULL;
}
