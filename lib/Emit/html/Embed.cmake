# Embed the highlighter's CSS and JS into the binary.
#   cmake -DOUTPUT=HTMLAssets.inc -DNAMES=TlpCSS,TlpJS \
#         -DFILES=tlp.css,tlp.js -P Embed.cmake
# Each file becomes a NUL-terminated byte array and a C string. The pages inline them in
# <style> and <script> elements, so a file must not contain "</style" or
# "</script" (checked here, case-insensitively).
string(REPLACE "," ";" NAMES "${NAMES}")
string(REPLACE "," ";" FILES "${FILES}")
list(LENGTH NAMES N)
math(EXPR LAST "${N} - 1")
set(TEXT "// Generated from lib/Emit/html by Embed.cmake; do not edit.\n")
foreach(I RANGE ${LAST})
  list(GET NAMES ${I} NAME)
  list(GET FILES ${I} FILE)
  file(READ "${FILE}" RAW)
  string(TOLOWER "${RAW}" LOWER)
  foreach(BAD "</script" "</style" "<!--")
    string(FIND "${LOWER}" "${BAD}" AT)
    if(NOT AT EQUAL -1)
      message(FATAL_ERROR "${FILE}: contains '${BAD}', which would end its element when inlined")
    endif()
  endforeach()
  file(READ "${FILE}" HEX HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," HEX "${HEX}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){32})" "\\1\n" HEX "${HEX}")
  string(APPEND TEXT "static const unsigned char ${NAME}Bytes[] = {\n${HEX}0};\n")
  string(APPEND TEXT "static const char *const ${NAME} =\n    reinterpret_cast<const char *>(${NAME}Bytes);\n")
endforeach()
# Rewrite only on change, so that what embeds it is not rebuilt for nothing.
include("${CMAKE_CURRENT_LIST_DIR}/WriteIfChanged.cmake")
tlp_write_if_changed("${OUTPUT}" "${TEXT}")
