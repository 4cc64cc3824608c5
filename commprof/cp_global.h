/* commprof: declarations shared by the tool's modules (not the pure ones). */
#ifndef CP_GLOBAL_H
#define CP_GLOBAL_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_machine.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"

#define CP_TOOL_VERSION "0.1.0"
#define CP_XML_FORMAT_VERSION 1

#endif /* CP_GLOBAL_H */
