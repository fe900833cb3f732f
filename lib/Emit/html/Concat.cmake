# Join the page script's modules into tlp.js (docs/html.md, "The page
# script"):
#   cmake -DOUTPUT=tlp.js -DMODULES=util.js,...,main.js -P Concat.cmake
# The modules go, in the order given, inside one function in strict mode:
# they share its scope, as if one file. A name declared at the start of a
# line ("function NAME" or "var NAME", a module's top level) in two
# modules is an error here: in one scope the later would silently replace
# the earlier.
string(REPLACE "," ";" MODULES "${MODULES}")
set(LIST "")
set(LINE " *")
foreach(MODULE ${MODULES})
  get_filename_component(NAME "${MODULE}" NAME)
  string(LENGTH "${LINE} ${NAME}" N)
  if(N GREATER 72)
    string(APPEND LIST "${LINE}\n")
    set(LINE " *")
  endif()
  string(APPEND LINE " ${NAME}")
endforeach()
string(APPEND LIST "${LINE}")
set(TEXT "/* tlp provenance highlighter (docs/html.md). Embedded into every page.
 * Generated from the modules of lib/Emit/html/js by Concat.cmake
 * (docs/html.md, \"The page script\"); do not edit. The modules, in order:
${LIST} */
(function () {
'use strict';
")
foreach(MODULE ${MODULES})
  get_filename_component(NAME "${MODULE}" NAME)
  file(READ "${MODULE}" RAW)
  string(REGEX MATCHALL "\n(function|var) [A-Za-z_$][A-Za-z0-9_$]*" DECLS "\n${RAW}")
  foreach(DECL ${DECLS})
    string(REGEX REPLACE "^\n(function|var) " "" ID "${DECL}")
    if(DEFINED "OWNER_${ID}")
      message(FATAL_ERROR "${NAME}: '${ID}' is declared in ${OWNER_${ID}} too")
    endif()
    set("OWNER_${ID}" "${NAME}")
  endforeach()
  if(NOT RAW MATCHES "\n$")
    string(APPEND RAW "\n")
  endif()
  string(APPEND TEXT "\n${RAW}")
endforeach()
string(APPEND TEXT "})();\n")
# Rewrite only on change, so that what embeds it is not rebuilt for nothing.
include("${CMAKE_CURRENT_LIST_DIR}/WriteIfChanged.cmake")
tlp_write_if_changed("${OUTPUT}" "${TEXT}")
