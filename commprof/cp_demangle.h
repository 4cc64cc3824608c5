/* commprof: readable names for the C++ data symbols of an executable.
 *
 * Valgrind demangles function names but gives data symbols as the ELF symbol
 * table has them: a C++ program's globals are "_ZN2ns5tableE",
 * "_ZZ4mainE5count" or "_ZTV5Shape".  cp_demangle_data turns the names of
 * data objects into what c++filt prints ("ns::table", "main::count",
 * "vtable for Shape"): the Itanium C++ ABI's names of variables (plain,
 * internal-linkage, in namespaces and classes, std::), local statics of
 * functions (with their parameter types, discriminators and string
 * literals), and the special names of vtables, VTTs, typeinfo objects and
 * their names, and guard variables.  A suffix the compiler appended
 * (".lto_priv.0", ".0") is printed as c++filt prints it for functions,
 * " [clone .lto_priv.0]".
 *
 * Anything else (templates, function types, operators, ABI tags, ...) and any
 * malformed input gives NULL: the caller keeps the symbol's own name.  The
 * parser reads only within the string, bounds its recursion and its output,
 * and never fails in any other way, whatever the input.
 *
 * This module is pure: it compiles into the tool and into the host unit
 * tests (tests/unit/test_demangle.c).
 */
#ifndef CP_DEMANGLE_H
#define CP_DEMANGLE_H

#include "cp_port.h"

#define CP_DEMANGLE_MAX 512          /* longest result, with its 0 */

/* The readable name of the symbol sym, in a block from CP_MALLOC that the
   caller frees, or NULL if sym is not a name of the kinds above. */
HChar* cp_demangle_data(const HChar* sym);

#endif
