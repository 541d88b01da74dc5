# Unity builds: a library's files are compiled in batches of eight, each batch one translation
# unit, so the headers nearly every file reaches (nlohmann/json, Eigen and the standard library
# through the model headers; Qt in the GUI libraries) are parsed once per batch instead of once
# per file. Helpers in anonymous namespaces therefore need names unique across their library.
# ACSEL_UNITY=OFF (the dev preset) compiles file by file: small incremental rebuilds, and a file
# that leans on another file's #include fails there.
option(ACSEL_UNITY "Compile the libraries in batches of files (unity build)" ON)

function(acsel_unity_build target)
  if(ACSEL_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()
