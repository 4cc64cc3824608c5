/* objects-tls: a thread-local array's .tbss section takes no address space and is no
 * object (run with --objects=yes).
 *
 * tl is a __thread array of 512 bytes: it lives in each thread's TLS block, and its
 * section .tbss (SHT_NOBITS, flag T) occupies no memory in the image: its sh_addr range
 * overlaps the sections that follow it (readelf -S: .tbss at the address of .init_array,
 * 0x200 bytes, over .init_array, .fini_array and .dynamic, at -O0 and -O2). Memory at those
 * addresses belongs to the following sections, so there is no object ".tbss" (cp_edges
 * prints ".tbss absent"), and the arrays of constructor and destructor pointers are the
 * objects .init_array and .fini_array (8 bytes each: frame_dummy and
 * __do_global_dtors_aux):
 *   the dynamic linker relocates each pointer before _start: producer (no function);
 *   libc's start-up code, called by _start, loads the .init_array entry to call it, and
 *   at exit _dl_fini loads the .fini_array entry (main has returned: _start is the
 *   innermost node function). Function pointer loads are data.
 *   flows: (no function) -> .init_array -> _start  bytes = 8, unma = 8
 *          (no function) -> .fini_array -> _start  bytes = 8, unma = 8
 *
 * stdout: tl[1] = 3, tl[2] = 4: 7.
 */
#include <stdio.h>

__thread long tl[64];

__attribute__((noipa)) long touch_tls(void)
{
    tl[1] = 3;
    tl[2] = 4;
    return tl[1] + tl[2];
}

int main(void)
{
    printf("objects-tls %ld\n", touch_tls());
    return 0;
}
