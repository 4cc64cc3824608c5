/* commprof: readable names for the C++ data symbols of an executable (see
   cp_demangle.h).  The grammar is the Itanium C++ ABI's (section 5.1,
   "External Names"), the subset that names data:

     mangled      ::= _Z encoding [.suffix]
     encoding     ::= special | name [bare-function-type]
     special      ::= TV type | TT type | TI type | TS type | GV name
     name         ::= nested-name | local-name | [St] [L] source-name [abi-tag*]
     nested-name  ::= N [r] [V] [K] [R | O] component+ E
     component    ::= [L] source-name [abi-tag*] | St | substitution
                    | C1..C5 | D0..D5          (constructors, destructors)
     abi-tag      ::= B source-name              (printed name[abi:tag])
     local-name   ::= Z encoding E (name | s) [discriminator]
     type         ::= builtin | K type | V type | r type | P type | R type
                    | O type | name | substitution | Dn | Ds | Di | Du

   Substitutions (S_, S<base 36>_) refer to earlier prefixes and types, as
   the ABI numbers them; St, Sa, Sb, Ss, Si, So, Sd are the standard ones. */

#include "cp_demangle.h"

#define MAX_SUBS   64
#define MAX_DEPTH  32

typedef struct {
   HChar s[CP_DEMANGLE_MAX];
   UInt  len;
} Str;

typedef struct {
   const HChar* p;            /* next character to read */
   const HChar* end;          /* end of the part to parse (before any .suffix) */
   Bool         bad;          /* malformed, unsupported or too long */
   UInt         depth;
   UInt         n_subs;
   Str          subs[MAX_SUBS];
} Dm;

static void str_clear(Str* o) { o->len = 0; o->s[0] = 0; }

static void put_n(Dm* d, Str* o, const HChar* s, UInt n)
{
   if (d->bad) return;
   if (o->len + n + 1 > CP_DEMANGLE_MAX) { d->bad = True; return; }
   CP_MEMCPY(o->s + o->len, s, n);
   o->len += n;
   o->s[o->len] = 0;
}

static void put(Dm* d, Str* o, const HChar* s)
{
   UInt n = 0;
   while (s[n]) n++;
   put_n(d, o, s, n);
}

static void put_str(Dm* d, Str* o, const Str* s) { put_n(d, o, s->s, s->len); }

static Bool at_end(const Dm* d) { return d->p >= d->end; }
static HChar peek(const Dm* d) { return at_end(d) ? 0 : *d->p; }
static HChar peek2(const Dm* d) { return d->p + 1 >= d->end ? 0 : d->p[1]; }

static Bool eat(Dm* d, HChar c)
{
   if (peek(d) != c) return False;
   d->p++;
   return True;
}

static void add_sub(Dm* d, const Str* s)
{
   if (d->bad) return;
   if (d->n_subs == MAX_SUBS) { d->bad = True; return; }
   d->subs[d->n_subs++] = *s;
}

static Bool ends_with(const Str* o, const HChar* w)
{
   UInt n = 0;
   while (w[n]) n++;
   if (o->len < n) return False;
   for (UInt i = 0; i < n; i++)
      if (o->s[o->len - n + i] != w[i]) return False;
   return True;
}

static Bool ends_with_qualifier(const Str* o)
{
   return ends_with(o, " const") || ends_with(o, " volatile") || ends_with(o, " restrict");
}

static Bool enter(Dm* d)
{
   if (d->bad || ++d->depth > MAX_DEPTH) { d->bad = True; return False; }
   return True;
}

/* <number> <identifier of that length> */
static void source_name(Dm* d, Str* o)
{
   UInt n = 0;
   if (!(peek(d) >= '1' && peek(d) <= '9')) { d->bad = True; return; }
   while (peek(d) >= '0' && peek(d) <= '9') {
      n = n * 10 + (UInt)(*d->p++ - '0');
      if (n >= CP_DEMANGLE_MAX) { d->bad = True; return; }
   }
   if ((Addr)(d->end - d->p) < n) { d->bad = True; return; }
   for (UInt i = 0; i < n; i++) {
      HChar c = d->p[i];
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || c == '_' || c == '$')) { d->bad = True; return; }
   }
   static const HChar anon[] = "_GLOBAL__N";
   Bool is_anon = n >= sizeof anon - 1;
   for (UInt i = 0; is_anon && i < sizeof anon - 1; i++)
      if (d->p[i] != anon[i]) is_anon = False;
   if (is_anon) put(d, o, "(anonymous namespace)");
   else         put_n(d, o, d->p, n);
   d->p += n;
}

/* B <source-name> ..., after a name: std::string's "[abi:cxx11]". */
static void abi_tags(Dm* d, Str* o)
{
   while (!d->bad && eat(d, 'B')) {
      put(d, o, "[abi:");
      source_name(d, o);
      put(d, o, "]");
   }
}

/* S_ | S <seq-id> _ | St | Sa | Sb | Ss | Si | So | Sd, the S read.
   *is_std tells that it was St, which needs a name after it. */
static void substitution(Dm* d, Str* o, Bool* is_std)
{
   *is_std = False;
   HChar c = peek(d);
   static const struct { HChar c; const HChar* name; } std_abbr[] = {
      { 'a', "std::allocator" }, { 'b', "std::basic_string" },
      { 's', "std::string" }, { 'i', "std::istream" },
      { 'o', "std::ostream" }, { 'd', "std::iostream" },
   };
   if (c == 't') { d->p++; *is_std = True; put(d, o, "std"); return; }
   for (UInt i = 0; i < sizeof std_abbr / sizeof std_abbr[0]; i++)
      if (c == std_abbr[i].c) { d->p++; put(d, o, std_abbr[i].name); return; }
   UInt idx = 0;
   if (c != '_') {
      UInt v = 0;
      while (!at_end(d) && peek(d) != '_') {
         HChar x = *d->p++;
         UInt dig;
         if (x >= '0' && x <= '9') dig = (UInt)(x - '0');
         else if (x >= 'A' && x <= 'Z') dig = (UInt)(x - 'A') + 10;
         else { d->bad = True; return; }
         v = v * 36 + dig;
         if (v >= MAX_SUBS) { d->bad = True; return; }
      }
      idx = v + 1;
   }
   if (!eat(d, '_') || idx >= d->n_subs) { d->bad = True; return; }
   put_str(d, o, &d->subs[idx]);
}

static void name(Dm* d, Str* o, Str* fn_quals);
static void type(Dm* d, Str* o);

/* N ... E, the N read.  The components before the last are substitution
   candidates; cv-qualifiers of a member function go to *fn_quals. */
static void nested_name(Dm* d, Str* o, Str* fn_quals)
{
   Str q;
   str_clear(&q);
   Bool r = eat(d, 'r'), v = eat(d, 'V'), k = eat(d, 'K');
   if (k) put(d, &q, " const");            /* the order c++filt prints them in */
   if (v) put(d, &q, " volatile");
   if (r) put(d, &q, " restrict");
   if (eat(d, 'R')) put(d, &q, " &");
   else if (eat(d, 'O')) put(d, &q, " &&");
   Str last;                         /* the last component, for constructors */
   str_clear(&last);
   UInt n = 0;
   Bool prefix_is_sub = False;       /* the prefix so far is one substitution */
   while (!d->bad && !eat(d, 'E')) {
      if (at_end(d)) { d->bad = True; return; }
      if (n > 0) {
         if (!prefix_is_sub) add_sub(d, o);    /* the prefix so far */
         put(d, o, "::");
      }
      prefix_is_sub = False;
      Str comp;
      str_clear(&comp);
      HChar c = peek(d);
      if (c == 'S') {
         d->p++;
         Bool is_std;
         Str sub;
         str_clear(&sub);
         substitution(d, &sub, &is_std);
         if (n > 0) { d->bad = True; return; }     /* only a prefix starts with one */
         if (sub.len && (sub.s[sub.len - 1] == '&' || sub.s[sub.len - 1] == '*'
                         || ends_with_qualifier(&sub))) {
            d->bad = True;           /* a pointer, reference or qualified type as a prefix */
            return;
         }
         put_str(d, o, &sub);
         /* a constructor of a substituted class is named after its last part */
         UInt from = 0;
         for (UInt i = 0; i + 1 < sub.len; i++)
            if (sub.s[i] == ':' && sub.s[i + 1] == ':') from = i + 2;
         put_n(d, &comp, sub.s + from, sub.len - from);
         /* a substitution is not a new candidate; St is not either */
         prefix_is_sub = !is_std && n == 0;
         n++;
         if (is_std) {
            /* std:: then the next component, without a candidate for "std" */
            if (eat(d, 'E')) { d->bad = True; return; }
            put(d, o, "::");
            if (peek(d) == 'L') d->p++;
            str_clear(&comp);
            source_name(d, &comp);
            Str plain = comp;           /* a constructor is named without the tags */
            abi_tags(d, &comp);
            put_str(d, o, &comp);
            comp = plain;
         }
         last = comp;
         continue;
      }
      if (c == 'L') { d->p++; c = peek(d); }
      Str plain;
      str_clear(&plain);
      if (c >= '1' && c <= '9') {
         source_name(d, &comp);
         plain = comp;               /* a constructor is named without the tags */
         abi_tags(d, &comp);
      } else if (c == 'C' && n > 0 && peek2(d) >= '1' && peek2(d) <= '5') {
         d->p += 2;
         comp = last;
      } else if (c == 'D' && n > 0 && peek2(d) >= '0' && peek2(d) <= '5') {
         d->p += 2;
         put(d, &comp, "~");
         put_str(d, &comp, &last);
      } else {
         d->bad = True;              /* templates, operators, abi tags, ... */
         return;
      }
      put_str(d, o, &comp);
      last = plain.len ? plain : comp;
      n++;
   }
   if (n == 0) d->bad = True;
   if (fn_quals) *fn_quals = q;
   else if (q.len) d->bad = True;    /* qualifiers on something that is no function */
}

/* The parameter types of a function, up to 'E' or the end: "(int, char)". */
static void bare_function_type(Dm* d, Str* o)
{
   put(d, o, "(");
   if (peek(d) == 'v' && (d->p + 1 >= d->end || d->p[1] == 'E')) {
      d->p++;
   } else {
      UInt n = 0;
      while (!d->bad && !at_end(d) && peek(d) != 'E') {
         if (n++) put(d, o, ", ");
         Str t;
         str_clear(&t);
         type(d, &t);
         put_str(d, o, &t);
      }
      if (n == 0) d->bad = True;
   }
   put(d, o, ")");
}

/* Z <function encoding> E <entity> [<discriminator>], the Z read. */
static void local_name(Dm* d, Str* o)
{
   Str fq;
   str_clear(&fq);
   name(d, o, &fq);
   if (d->bad) return;
   if (peek(d) != 'E') bare_function_type(d, o);    /* main has no parameter types */
   put_str(d, o, &fq);
   if (!eat(d, 'E')) { d->bad = True; return; }
   put(d, o, "::");
   if (eat(d, 's')) {
      put(d, o, "string literal");
   } else {
      Str e;
      str_clear(&e);
      name(d, &e, NULL);
      put_str(d, o, &e);
   }
   /* discriminator: _ <digit> | __ <number> _ */
   if (peek(d) == '_') {
      d->p++;
      if (eat(d, '_')) {
         if (!(peek(d) >= '0' && peek(d) <= '9')) { d->bad = True; return; }
         while (peek(d) >= '0' && peek(d) <= '9') d->p++;
         if (!eat(d, '_')) d->bad = True;
      } else if (peek(d) >= '0' && peek(d) <= '9') {
         while (peek(d) >= '0' && peek(d) <= '9') d->p++;
      } else {
         d->bad = True;
      }
   }
}

static void name(Dm* d, Str* o, Str* fn_quals)
{
   if (!enter(d)) return;
   HChar c = peek(d);
   if (c == 'N') {
      d->p++;
      nested_name(d, o, fn_quals);
   } else if (c == 'Z') {
      d->p++;
      local_name(d, o);
   } else if (c == 'S' && peek2(d) == 't') {
      d->p += 2;
      put(d, o, "std::");
      if (peek(d) == 'L') d->p++;
      source_name(d, o);
      abi_tags(d, o);
   } else {
      if (c == 'L') d->p++;
      source_name(d, o);
      abi_tags(d, o);
   }
   d->depth--;
}

static void type(Dm* d, Str* o)
{
   if (!enter(d)) return;
   static const struct { HChar c; const HChar* name; } builtin[] = {
      { 'v', "void" }, { 'w', "wchar_t" }, { 'b', "bool" }, { 'c', "char" },
      { 'a', "signed char" }, { 'h', "unsigned char" }, { 's', "short" },
      { 't', "unsigned short" }, { 'i', "int" }, { 'j', "unsigned int" },
      { 'l', "long" }, { 'm', "unsigned long" }, { 'x', "long long" },
      { 'y', "unsigned long long" }, { 'n', "__int128" },
      { 'o', "unsigned __int128" }, { 'f', "float" }, { 'd', "double" },
      { 'e', "long double" }, { 'g', "__float128" }, { 'z', "..." },
   };
   HChar c = peek(d);
   for (UInt i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
      if (c == builtin[i].c) {
         d->p++;
         put(d, o, builtin[i].name);
         d->depth--;
         return;
      }
   if (c == 'r' || c == 'V' || c == 'K') {
      /* [r] [V] [K] <type>: one group, one substitution candidate */
      Str quals;
      str_clear(&quals);
      Bool r = eat(d, 'r'), v = eat(d, 'V'), k = eat(d, 'K');
      if (k) put(d, &quals, " const");
      if (v) put(d, &quals, " volatile");
      if (r) put(d, &quals, " restrict");
      c = peek(d);
      if (c == 'r' || c == 'V' || c == 'K') d->bad = True;   /* twice, or out of order */
      type(d, o);
      /* a qualified reference, or qualifiers on a qualified substitution:
         no compiler makes them */
      if (o->len && (o->s[o->len - 1] == '&' || ends_with_qualifier(o))) d->bad = True;
      put_str(d, o, &quals);
      add_sub(d, o);
      d->depth--;
      return;
   }
   const HChar* suffix = NULL;
   switch (c) {
   case 'P': suffix = "*"; break;
   case 'R': suffix = "&"; break;
   case 'O': suffix = "&&"; break;
   default: break;
   }
   if (suffix) {
      d->p++;
      type(d, o);
      /* a reference to a reference collapses, qualifiers of a reference and
         pointers to one do not exist: not printed here */
      if (o->len && o->s[o->len - 1] == '&') d->bad = True;
      put(d, o, suffix);
      add_sub(d, o);
   } else if (c == 'D') {
      HChar c2 = peek2(d);
      d->p += 2;
      if      (c2 == 'n') put(d, o, "decltype(nullptr)");
      else if (c2 == 's') put(d, o, "char16_t");
      else if (c2 == 'i') put(d, o, "char32_t");
      else if (c2 == 'u') put(d, o, "char8_t");
      else d->bad = True;
   } else if (c == 'S' && peek2(d) != 't') {
      d->p++;
      Bool is_std;
      substitution(d, o, &is_std);
   } else if (c == 'N' || c == 'S' || (c >= '1' && c <= '9')) {
      name(d, o, NULL);
      add_sub(d, o);
   } else {
      d->bad = True;               /* arrays, functions, templates, ... */
   }
   d->depth--;
}

HChar* cp_demangle_data(const HChar* sym)
{
   if (sym == NULL || sym[0] != '_' || sym[1] != 'Z') return NULL;
   const HChar* end = sym + 2;
   while (*end && *end != '.') end++;
   const HChar* suffix = *end == '.' ? end : NULL;
   Dm* d = CP_MALLOC("cp.demangle", sizeof(Dm));
   d->p = sym + 2;
   d->end = end;
   d->bad = False;
   d->depth = 0;
   d->n_subs = 0;
   Str o;
   str_clear(&o);
   if (peek(d) == 'T' && (peek2(d) == 'V' || peek2(d) == 'T' || peek2(d) == 'I'
                          || peek2(d) == 'S')) {
      HChar k = peek2(d);
      d->p += 2;
      put(d, &o, k == 'V' ? "vtable for " : k == 'T' ? "VTT for "
                 : k == 'I' ? "typeinfo for " : "typeinfo name for ");
      Str t;
      str_clear(&t);
      type(d, &t);
      put_str(d, &o, &t);
   } else if (peek(d) == 'G' && peek2(d) == 'V') {
      d->p += 2;
      put(d, &o, "guard variable for ");
      Str n;
      str_clear(&n);
      name(d, &n, NULL);
      put_str(d, &o, &n);
   } else {
      Str fq;
      str_clear(&fq);
      Str n;
      str_clear(&n);
      name(d, &n, &fq);
      put_str(d, &o, &n);
      if (!at_end(d) && !d->bad) {       /* a function's name: its parameters */
         bare_function_type(d, &o);
         put_str(d, &o, &fq);
      } else if (fq.len) {
         d->bad = True;
      }
   }
   if (!at_end(d)) d->bad = True;
   if (suffix) {
      put(d, &o, " [clone ");
      const HChar* s = suffix;
      while (*s) s++;
      put_n(d, &o, suffix, (UInt)(s - suffix));
      put(d, &o, "]");
   }
   HChar* res = NULL;
   if (!d->bad) {
      res = CP_MALLOC("cp.demangle", o.len + 1);
      CP_MEMCPY(res, o.s, o.len + 1);
   }
   CP_FREE(d);
   return res;
}
