/* commprof: loads that Valgrind's IR optimiser removed (see cp_deadloads.h). */

#include "cp_deadloads.h"

/* ---- decoding: does an instruction have a memory operand? ---- */

/* One-byte opcodes followed by a ModRM byte (64-bit mode; C4, C5 and 0F
   are handled apart). */
static Bool onebyte_modrm(UChar op)
{
   UInt lo = op & 7;
   if (op < 0x40) return lo <= 3;                             /* add .. cmp, their r/m forms */
   switch (op) {
   case 0x63: case 0x69: case 0x6B:
   case 0xC0: case 0xC1: case 0xC6: case 0xC7:
   case 0xD0: case 0xD1: case 0xD2: case 0xD3:
   case 0xF6: case 0xF7: case 0xFE: case 0xFF:
      return True;
   default:
      break;
   }
   if (op >= 0x80 && op <= 0x8F) return True;
   if (op >= 0xD8 && op <= 0xDF) return True;                 /* x87 */
   return False;
}

/* Two-byte opcodes (0F xx) without a ModRM byte. */
static Bool twobyte_no_modrm(UChar op)
{
   if (op >= 0x80 && op <= 0x8F) return True;                 /* jcc rel32 */
   if (op >= 0xC8 && op <= 0xCF) return True;                 /* bswap */
   if (op >= 0x30 && op <= 0x37) return True;                 /* wrmsr, rdtsc, sysenter, .. */
   switch (op) {
   case 0x04: case 0x05: case 0x06: case 0x07: case 0x08: case 0x09:
   case 0x0A: case 0x0B: case 0x0C: case 0x0E: case 0x77:
   case 0xA0: case 0xA1: case 0xA2: case 0xA8: case 0xA9: case 0xAA:
      return True;
   default:
      return False;
   }
}

/* Two-byte opcodes whose memory operand is accessed by no load or store of
   the IR, or by one the optimiser never deletes: prefetches and hint NOPs
   (0F 0D, 0F 18..1F: nopw/nopl with a memory form, endbr64, the MPX forms),
   the 0F AE group (CLFLUSH and the fences access nothing; LDMXCSR's load
   decides an emulation-warning exit, so it stays even when the next
   instruction sets MXCSR again; FXSAVE/FXRSTOR and XSAVE/XRSTOR are helper
   calls, never deleted), the system forms of 0F 00 and 0F 01, and the
   UD1/UD0 traps. */
static Bool twobyte_no_access(UChar op)
{
   return op == 0x0D || (op >= 0x18 && op <= 0x1F) || op == 0xAE
          || op == 0x00 || op == 0x01 || op == 0xB9 || op == 0xFF;
}

/* The legacy prefixes and REX at the start of code: the index of the byte
   after them; *has66: an operand-size prefix among them; *rex: the last REX
   byte (0 if none). */
static UInt skip_prefixes(const UChar* code, UInt len, Bool* has66, UChar* rex)
{
   UInt i = 0;
   *has66 = False;
   *rex = 0;
   while (i < len) {
      UChar b = code[i];
      if (b >= 0x40 && b <= 0x4F) {
         *rex = b;
      } else if (b == 0x26 || b == 0x2E || b == 0x36 || b == 0x3E || b == 0x64 || b == 0x65
                 || b == 0x66 || b == 0x67 || b == 0xF0 || b == 0xF2 || b == 0xF3) {
         if (b == 0x66) *has66 = True;
         *rex = 0;                          /* a REX counts only right before the opcode */
      } else {
         break;
      }
      i++;
   }
   return i;
}

Bool cp_insn_mem_operand(const UChar* code, UInt len)
{
   Bool has66;
   UChar rex;
   UInt i = skip_prefixes(code, len, &has66, &rex);
   if (i >= len) return False;
   UChar op = code[i++];
   Bool modrm;
   if (op == 0xC4 || op == 0xC5) {                            /* VEX */
      UInt map = 1;
      if (op == 0xC4) {
         if (i + 2 > len) return False;
         map = code[i] & 0x1F;
         i += 2;
      } else {
         if (i + 1 > len) return False;
         i += 1;
      }
      if (i >= len || map < 1 || map > 3) return False;
      UChar vop = code[i++];
      if (map == 1 && vop == 0x77) return False;              /* vzeroupper, vzeroall */
      if (map == 1 && twobyte_no_access(vop)) return False;
      modrm = True;
   } else if (op == 0x0F) {
      if (i >= len) return False;
      UChar op2 = code[i++];
      if (op2 == 0x38 || op2 == 0x3A) {                       /* three-byte maps */
         if (i >= len) return False;
         i++;
         modrm = True;
      } else {
         if (twobyte_no_modrm(op2) || twobyte_no_access(op2)) return False;
         modrm = True;
      }
   } else {
      if (op == 0xA0 || op == 0xA1) return True;               /* mov moffs -> al/eax/rax */
      if (op == 0x8D) return False;                           /* lea */
      modrm = onebyte_modrm(op);
   }
   if (!modrm || i >= len) return False;
   return (code[i] >> 6) != 3;
}

Int cp_insn_maskmov(const UChar* code, UInt len, Bool* mmx)
{
   Bool has66;
   UChar rex;
   UInt i = skip_prefixes(code, len, &has66, &rex);
   UInt b = 0;                                  /* ModRM.rm's extension */
   *mmx = False;
   if (i + 1 < len && code[i] == 0x0F && code[i + 1] == 0xF7) {
      i += 2;
      *mmx = !has66;
      if (!*mmx && (rex & 1)) b = 8;
   } else if (i + 2 < len && code[i] == 0xC5) {
      if ((code[i + 1] & 3) != 1 || code[i + 2] != 0xF7) return -1;     /* pp = 66 */
      i += 3;
   } else if (i + 3 < len && code[i] == 0xC4) {
      if ((code[i + 1] & 0x1F) != 1 || (code[i + 2] & 3) != 1 || code[i + 3] != 0xF7)
         return -1;                                                  /* map 0F, pp = 66 */
      if (!(code[i + 1] & 0x20)) b = 8;                              /* VEX.B, inverted */
      i += 4;
   } else {
      return -1;
   }
   if (i >= len || (code[i] >> 6) != 3) return -1;
   return (Int)((code[i] & 7) | b);
}

#ifndef CP_HOST_TEST

#include "pub_tool_options.h"
#include "pub_tool_libcprint.h"
#if defined(VGA_amd64)
#include "libvex_guest_amd64.h"
#endif

/* The block whose precise translation is awaited (0: none), and the value
   of VG_(clo_px_file_backed) to put back when it comes. */
static Addr  pending;
static VexRegisterUpdates saved_px;
static ULong bounced;

ULong cp_deadloads_bounced(void) { return bounced; }

/* Whether statement st accesses memory. */
static Bool stmt_accesses(const IRStmt* st)
{
   switch (st->tag) {
   case Ist_WrTmp:  return st->Ist.WrTmp.data->tag == Iex_Load;
   case Ist_Store: case Ist_StoreG: case Ist_LoadG: case Ist_CAS: case Ist_LLSC:
      return True;
   case Ist_Dirty:  return st->Ist.Dirty.details->mFx != Ifx_None;
   default:         return False;
   }
}

/* Whether an instruction of sbIn has a memory operand and no access left. */
static Bool lost_a_load(const IRSB* sbIn)
{
   Bool in_insn = False, seen = False, mem = False;
   for (Int i = 0; i < sbIn->stmts_used; i++) {
      const IRStmt* st = sbIn->stmts[i];
      if (st->tag == Ist_IMark) {
         if (in_insn && mem && !seen) return True;
         in_insn = True;
         seen = False;
         mem = st->Ist.IMark.len > 0 && st->Ist.IMark.delta == 0
               && cp_insn_mem_operand((const UChar*)st->Ist.IMark.addr, st->Ist.IMark.len);
      } else if (stmt_accesses(st)) {
         seen = True;
      }
   }
   return in_insn && mem && !seen;
}

IRSB* cp_deadloads_check(IRSB* sbIn, const VexGuestExtents* vge)
{
#if defined(VGA_amd64)
   Addr start = (Addr)vge->base[0];
   if (pending == start) {                 /* the translation we asked for */
      VG_(clo_px_file_backed) = saved_px;
      pending = 0;
      return NULL;
   }
   if (vge->n_used != 1 || !lost_a_load(sbIn)) return NULL;
   if (pending == 0) saved_px = VG_(clo_px_file_backed);
   pending = start;
   VG_(clo_px_file_backed) = VexRegUpdAllregsAtEachInsn;
   bounced++;
   /* no instruction: discard this translation and start the block again */
   IRSB* sb = deepCopyIRSBExceptStmts(sbIn);
   addStmtToIRSB(sb, IRStmt_Put(offsetof(VexGuestAMD64State, guest_CMSTART),
                                IRExpr_Const(IRConst_U64((ULong)start))));
   addStmtToIRSB(sb, IRStmt_Put(offsetof(VexGuestAMD64State, guest_CMLEN),
                                IRExpr_Const(IRConst_U64((ULong)vge->len[0]))));
   sb->next = IRExpr_Const(IRConst_U64((ULong)start));
   sb->jumpkind = Ijk_InvalICache;
   return sb;
#else
   (void)sbIn; (void)vge;
   return NULL;
#endif
}

#endif /* !CP_HOST_TEST */
