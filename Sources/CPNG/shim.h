#include <png.h>
/* zlib (libpng's own dependency): PNG files are written with deflate directly, at a level and
   filter chosen for the board (Sources/ImageFile/PNGFile.swift). */
#include <zlib.h>
