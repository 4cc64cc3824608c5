/* cxx-abitag: C++ statics whose symbols carry an ABI tag are named as c++filt names
 * them (run with --objects=yes).
 *
 * docs/definitions.md, Data objects, static: "a C++ symbol of a variable, local static,
 * ... demangled as c++filt prints it ..., the symbol itself then in the symbol
 * attribute".  A std::string (or a function returning one) gets the ABI tag cxx11 in its
 * symbol: B5cxx11.  Before, such symbols were left mangled (_Z5labelB5cxx11).
 *
 *   label            a global std::string:         _Z5labelB5cxx11 -> label[abi:cxx11]
 *   names::title     one in a namespace:           _ZN5names5titleB5cxx11E
 *                                                  -> names::title[abi:cxx11]
 *   make()::cache    a local static of a function returning a std::string:
 *                    _ZZ4makeB5cxx11vE5cache -> make[abi:cxx11]()::cache
 *   and the guard variable of that static: _ZGVZ4makeB5cxx11vE5cache
 *                    -> guard variable for make[abi:cxx11]()::cache, size 8
 * Each string is a std::string: size 32 (a pointer, a length and a 16-byte buffer).  The
 * post command prints each object's name, symbol and size.
 *
 * stdout: the three strings' lengths, 40 + 30 + 20 = 90.
 */
#include <cstdio>
#include <string>

std::string label(40, 'x');
namespace names { std::string title(30, 'y'); }

__attribute__((noipa)) std::string make()
{
    static std::string cache(20, 'z');
    return cache;
}

int main()
{
    printf("%zu\n", label.size() + names::title.size() + make().size());
    return 0;
}
