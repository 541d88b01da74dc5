# Warnings for the project's own targets (never for system headers).
function(acsel_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
    -Wcast-align -Woverloaded-virtual -Wconversion -Wsign-conversion
    -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
  if(ACSEL_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
