/* commprof: data objects (--objects=yes).
 *
 * An object is a heap allocation site (identified by the file:line of each
 * call on its allocation path, as in MCProf), a global or static of the main
 * executable (from its ELF symbol table), a section of the main executable
 * for data outside any symbol, a thread's instance of a thread-local
 * variable of the main executable, or a thread's stack.  Every load and store is
 * matched to the object holding its address, which gives per-object reads,
 * writes, first and last access, and the flows producer -> object ->
 * consumer. */
#ifndef CP_OBJECTS_H
#define CP_OBJECTS_H

#include "pub_tool_basics.h"
#include "cp_nodes.h"
#include "cp_edges.h"

typedef enum { CP_OBJ_HEAP = 0, CP_OBJ_STATIC, CP_OBJ_SECTION, CP_OBJ_STACK, CP_OBJ_NAMED,
               CP_OBJ_TLS, CP_OBJ_KINDS } CpObjKind;
/* Their names in the outputs ("heap", "static", ...). */
extern const HChar* const cp_obj_kind_names[CP_OBJ_KINDS];

typedef struct {
   HChar* fn;          /* function, "???" if unknown */
   HChar* file;        /* source file, "" if unknown */
   UInt   line;        /* 0 if unknown */
} CpAllocFrame;

typedef struct {
   UInt   id;
   UInt   kind;                 /* CpObjKind */
   HChar* name;                 /* heap: file:line of the allocating call; static: symbol,
                                   demangled (cp_demangle.h) */
   HChar* symbol;               /* static with a demangled name: the symbol; else NULL */
   HChar* elf;                  /* static and section: the object file; else "" */
   CpAllocFrame* frames;        /* heap: the allocation path, innermost call first */
   Bool   inlined_library;      /* heap: up to the frame it is named after, the path has
                                   library code inlined into a function of the program
                                   (named better with --read-inline-info=yes) */
   UInt   n_frames;
   Addr   addr;                 /* static, section, stack: start */
   SizeT  size;                 /* static, section: size; heap: size of the last block */
   UInt   thread;               /* stack, tls: thread index */
   ULong  blocks;               /* heap: blocks allocated */
   ULong  total_bytes;          /* heap: bytes allocated over the run */
   ULong  live_bytes, peak_bytes;
   ULong  reads, read_bytes;    /* loads and their bytes */
   ULong  writes, write_bytes;  /* stores and their bytes */
   ULong  written_bytes;        /* distinct bytes written by the program (not by the
                                   allocator) in blocks already freed */
   ULong  written_report;       /* the same over all blocks, set by cp_objects_sync */
   ULong  prod_bytes;           /* distinct bytes written and later read before being freed */
   ULong  first_access, last_access;   /* instruction count + 1; 0 = never accessed */
   Bool   selected;             /* reported (--object-include/--object-exclude) */
} CpObject;

extern CpObject**  cp_objects;
extern UInt        cp_n_objects;
/* flows: producer context -> (consumer context, object) */
extern CpEdgeTable cp_flows;
typedef struct { UInt ctx; UInt object; } CpObjConsumer;
extern CpObjConsumer* cp_obj_consumers;       /* by the id in a flow edge's consumer half */

void cp_objects_init(void);
/* The main executable's debug info became known. */
void cp_objects_main_exe(const HChar* path, Addr bias);

/* Heap blocks (from cp_heap.c).  An instance is one block. */
UInt cp_objects_block_alloc(ThreadId tid, Addr p, SizeT size);
void cp_objects_block_free(UInt inst);
void cp_objects_block_move(UInt inst, Addr new_p, SizeT new_size);
void cp_objects_block_shrink(UInt inst, SizeT new_size);

/* COMMPROF_NAME_OBJECT: [a, a+size) is the object named name. */
void cp_objects_name_range(Addr a, SizeT size, const HChar* name);
/* [a, a+len) is unmapped (before its producers are forgotten): the named
   ranges on it end. */
void cp_objects_memory_gone(Addr a, SizeT len);

/* Thread stacks. */
void cp_objects_thread_stack(UInt thread_index, Addr lo, Addr hi);
/* A thread's stack [lo, hi) ends; inst1: the instance + 1 of the heap
   block that was its stack (pthread_attr_setstack), which is the heap
   object's again, or 0. */
void cp_objects_thread_gone(Addr lo, Addr hi, UInt inst1);
/* Thread-local variables of the main executable: thread thread_index's
   block of them is at block from now on (0: it has none any more, its
   thread has exited).  cp_events.c says when: see cp_events.h. */
void cp_objects_thread_tls(UInt thread_index, Addr block);

/* Per access, after the communication edges are credited; c is the
   context of the access, n its node. */
void cp_objects_load(Addr a, SizeT sz, UInt c, CpNode* n);
void cp_objects_store(Addr a, SizeT sz, CpNode* n);
/* The same as cp_objects_load when every byte of [a, a+sz) has producer p. */
void cp_objects_load_from(Addr a, SizeT sz, UInt c, CpNode* n, UInt p);
/* The same for a piece of an instruction's memory operand (cp_access.c's
   grouped accesses): the bytes count, the access only for the first piece
   of the instruction to each object, since cp_objects_group_begin. */
void cp_objects_group_begin(void);
void cp_objects_load_grouped(Addr a, SizeT sz, UInt c, CpNode* n);
void cp_objects_store_grouped(Addr a, SizeT sz, CpNode* n);

/* In a forked child: start counting afresh. */
void cp_objects_after_fork(void);

/* Before a report: bring written_bytes of live blocks and statics up to date. */
void cp_objects_sync(void);

/* A header file: .h, .hh, .hpp, .hxx, .h++, .tcc, .inl, .ipp, .tpp, or no
   extension (C++'s <vector>). */
Bool cp_objects_is_header(const HChar* file);
/* An allocation path had calls inlined into one of its calls (Valgrind
   reads inline info: --read-inline-info=yes). */
extern Bool cp_objects_inline_seen;

#endif
