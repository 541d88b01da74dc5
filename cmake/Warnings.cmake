# Warnings for the project's own targets (never for system headers).
function(acsel_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
    -Wcast-align -Woverloaded-virtual -Wconversion -Wsign-conversion
    -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
  # GCC 12 at -O3 (the release preset) reports -Wrestrict inside std::string concatenation
  # that cannot happen (GCC bug 105329); it would fail `bash packaging/test.sh`.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  # The release build is the warnings gate. Sanitizer builds (-O1 plus instrumentation) make GCC
  # report warnings that are not there (-Wmaybe-uninitialized inside libstdc++'s <regex>, which
  # GCC's manual says sanitizers cause): they print, but do not fail the build.
  if(ACSEL_WERROR AND ACSEL_SANITIZE STREQUAL "")
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
