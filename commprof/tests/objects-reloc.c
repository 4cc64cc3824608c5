/* objects-reloc: the dynamic linker's relocation stores into a global are stores to it
 * (run with --objects=yes).
 *
 * tab is an array of two pointers, initialised with the addresses of two string
 * literals. The program is position independent (gcc's default here), so tab's bytes are
 * not in the file: the dynamic linker stores them at start-up, one 8-byte store per
 * R_X86_64_RELATIVE relocation (readelf -r lists one for tab and one for tab+8). It runs
 * before _start, while no node function is on the stack: its stores are charged to
 * (no function), which the flow below shows as the producer of tab's bytes.
 *
 *   ld.so:  2 stores of 8 bytes into tab       -> writes = 2, write-bytes = 16
 *   use:    2 loads of 8 bytes from tab (volatile), then one byte of each string
 *                                              -> reads = 2, read-bytes = 16
 *   tab (static, 16 bytes): written-bytes = 16, prod-bytes = 16, alloc-pct = prod-pct =
 *   100.0
 *   flow: (no function) -> tab -> use  bytes = 16, unma = 16
 *
 * stdout: 'a' + 'b' = 97 + 98 = 195.
 */
#include <stdio.h>

const char *tab[2] = {"alpha", "beta"};

__attribute__((noipa)) long use(void)
{
    volatile const char **t = (volatile const char **)tab;
    return (long)(t[0][0] + t[1][0]);
}

int main(void)
{
    printf("objects-reloc %ld\n", use());
    return 0;
}
