// libxml2's SAX2 parser. Debian builds libxml2 with ICU, whose headers clash with the copy of ICU
// inside Swift's Foundation (a test target that imports both fails with "UErrorCode has different
// definitions"). Only xmlCharEncodingHandler's tail depends on ICU, a struct Glance reaches
// through pointers only, so the ICU parts of the headers are left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
