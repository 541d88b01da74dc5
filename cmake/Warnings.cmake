# Warnings for the project's own targets (never for system headers).
function(acsel_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
    -Wcast-align -Woverloaded-virtual -Wconversion -Wsign-conversion
    -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
  # GCC 12 at -O3 (release) reports -Wrestrict inside libstdc++'s std::string concatenation
  # (GCC bug 105329), not in our code.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(ACSEL_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
