#ifndef GLANCE_BUILD_INFO_H
#define GLANCE_BUILD_INFO_H

/// The version of this build of Glance ("0.2.0", or what the build gave, e.g. the package's
/// "0.2.0+git812.4d3e922").
const char *glance_version(void);

#endif
