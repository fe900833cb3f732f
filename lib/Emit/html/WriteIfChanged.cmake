# tlp_write_if_changed(OUTPUT TEXT): write TEXT to OUTPUT unless OUTPUT
# already holds it, so that what depends on a generated file is rebuilt
# only when its text changed. Included by Concat.cmake and Embed.cmake
# (cmake -P scripts).
function(tlp_write_if_changed OUTPUT TEXT)
  if(EXISTS "${OUTPUT}")
    file(READ "${OUTPUT}" OLD)
    if(OLD STREQUAL TEXT)
      return()
    endif()
  endif()
  file(WRITE "${OUTPUT}" "${TEXT}")
endfunction()
