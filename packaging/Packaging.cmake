# Install rules and the Debian package: `cmake --build <dir> --target package` writes
# acsel-studio_<version>_<arch>.deb into <dir>. Included last by the top-level CMakeLists.
include(GNUInstallDirs)

set(ACSEL_APP_ID "dev.acsel.Studio")
set(ACSEL_DATADIR "${CMAKE_INSTALL_DATADIR}/acsel-studio")

# The default workspace: app/common/paths.cpp finds it at <exe_dir>/../share/acsel-studio,
# so the installed tree works wherever it is unpacked.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/datasets/" DESTINATION "${ACSEL_DATADIR}/datasets")
# Debian keeps the licence as /usr/share/doc/<package>/copyright.
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}" RENAME copyright)
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}")

if(ACSEL_BUILD_GUI)
  set(_res "${PROJECT_SOURCE_DIR}/resources")
  install(FILES "${_res}/${ACSEL_APP_ID}.desktop" DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
  install(FILES "${_res}/${ACSEL_APP_ID}.metainfo.xml" DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
  install(FILES "${_res}/icons/${ACSEL_APP_ID}.svg"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
  foreach(size 16 22 24 32 48 64 128 256)
    install(FILES "${_res}/icons/hicolor/${size}x${size}/apps/${ACSEL_APP_ID}.png"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps")
  endforeach()
endif()

# Runtime packages, Debian 12 names (checked with apt-cache). The minimum versions are what
# dpkg-shlibdeps derives for binaries built on Debian 12; the package test recomputes them
# from the built binaries and fails if this list misses a package or asks too little.
set(ACSEL_DEB_DEPENDS
    "libc6 (>= 2.34)"
    "libgcc-s1 (>= 3.0)"
    "libstdc++6 (>= 12)"
    "libyaml-cpp0.7 (>= 0.7.0)")
if(ACSEL_BUILD_GUI)
  list(APPEND ACSEL_DEB_DEPENDS
       "libqt6core6 (>= 6.4.0)"
       "libqt6gui6 (>= 6.4.0)"
       "libqt6widgets6 (>= 6.4.0)"
       "libqt6printsupport6 (>= 6.4.0)"
       "libqt6svg6 (>= 6.4.0)"
       "libqt6concurrent6 (>= 6.4.0)"
       "libqcustomplot2.1-qt6 (>= 2.1.0+dfsg1)"
       # Not linked, loaded at start: without a platform plugin the window cannot open.
       "qt6-qpa-plugins (>= 6.4.0)")
endif()
list(JOIN ACSEL_DEB_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "acsel-studio")
set(CPACK_PACKAGE_VENDOR "ACSeL Studio authors")
set(CPACK_PACKAGE_CONTACT "ACSeL Studio authors <maintainers@acsel.dev>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "design-space explorer for deploying LLMs on constrained GPUs")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME "DEB-DEFAULT")
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
# CPack puts the summary on the Description line and indents this long text below it.
set(CPACK_PACKAGE_DESCRIPTION
    "ACSeL Studio predicts time to first token, time per output token and memory of
mixed-precision (band) quantization recipes for a large language model on a
given GPU and serving stack, shows the quality-latency Pareto frontier under
the user's budgets, recommends a recipe and exports it as an NVIDIA ModelOpt
recipe. It ships the acsel-studio desktop program and the headless acsel
command line tool, with a default workspace of model architectures.")
include(CPack)

# The package test: build the .deb, unpack it into a temporary root and run the installed
# `acsel info` against the installed default workspace (see packaging/test_package_install.cmake).
if(ACSEL_BUILD_TESTS)
  add_test(NAME package_install
           COMMAND "${CMAKE_COMMAND}" -DBUILD_DIR=${PROJECT_BINARY_DIR}
                   -DCPACK=${CMAKE_CPACK_COMMAND} -DGUI=${ACSEL_BUILD_GUI}
                   -DVERSION=${PROJECT_VERSION}
                   "-DDEPENDS=${CPACK_DEBIAN_PACKAGE_DEPENDS}"
                   "-DTABLES=${PROJECT_SOURCE_DIR}/../shared/aic"
                   -P "${CMAKE_CURRENT_LIST_DIR}/test_package_install.cmake")
  set_tests_properties(package_install PROPERTIES LABELS "package" TIMEOUT 300
                       RUN_SERIAL TRUE ENVIRONMENT "ACSEL_TABLES=;ACSEL_WORKSPACE=")
endif()
