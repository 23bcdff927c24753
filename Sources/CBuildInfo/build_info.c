// The version `glance --version` prints. A build that makes a package puts the package's version
// in a header glance_version.h on the include path (tools/build-deb.sh writes it and passes
// -Xcc -I with its folder): only this file depends on it, so a new version relinks the program
// instead of rebuilding every module, as a -D on the command line would.
#include "glance_build_info.h"

#if __has_include("glance_version.h")
#include "glance_version.h"
#endif

// The base version: tools/build-deb.sh reads it from this line.
#define GLANCE_BASE_VERSION "0.2.0"

#ifndef GLANCE_VERSION
#define GLANCE_VERSION GLANCE_BASE_VERSION
#endif

const char *glance_version(void) { return GLANCE_VERSION; }
