# What an installed glevo carries besides the library (CMakeLists.txt installs that): man pages
# generated from --help, the bash completion, the docs and examples, the Python package's
# pointer to the installed library; and the Debian package CPack makes of it all
# (scripts/package-deb.sh; docs/install.md).

# Where the installed Python package finds the library without environment variables: the
# absolute path this prefix gives it (python/glevo/_lib.py falls back on the loader's search).
configure_file(cmake/installed_library.py.in ${CMAKE_BINARY_DIR}/python/_installed.py @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/python/_installed.py DESTINATION ${GLEVO_PYTHON_DIR}/glevo)

# Man pages from the programs' own --help (help2man), so they list exactly what the option
# tables accept; built where help2man is installed (the quickstart installs it).
find_program(GLEVO_HELP2MAN help2man)
if(GLEVO_HELP2MAN AND NOT GLEVO_SANITIZE AND NOT GLEVO_FUZZ)
  set(GLEVO_MAN_DIR ${CMAKE_BINARY_DIR}/man)
  set(GLEVO_MAN_DEMO "")
  if(TARGET glevo-demo)
    set(GLEVO_MAN_DEMO $<TARGET_FILE:glevo-demo>)
  endif()
  add_custom_command(OUTPUT ${GLEVO_MAN_DIR}/glevo.1.gz
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${GLEVO_MAN_DIR}
    COMMAND sh ${CMAKE_SOURCE_DIR}/cmake/make_man_pages.sh $<TARGET_FILE:glevo_cli>
            "${GLEVO_MAN_DEMO}" ${PROJECT_VERSION} ${GLEVO_MAN_DIR}
    DEPENDS glevo_cli $<TARGET_NAME_IF_EXISTS:glevo-demo> ${CMAKE_SOURCE_DIR}/cmake/make_man_pages.sh
    COMMENT "Man pages from --help (help2man)")
  add_custom_target(man ALL DEPENDS ${GLEVO_MAN_DIR}/glevo.1.gz)
  install(DIRECTORY ${GLEVO_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  if(GLEVO_BUILD_TESTS)
    add_test(NAME test_cli_docs COMMAND ${CMAKE_SOURCE_DIR}/tests/install/test_cli_docs.sh
             $<TARGET_FILE:glevo_cli> ${GLEVO_MAN_DIR} ${CMAKE_SOURCE_DIR}/cli/glevo.bash-completion)
  endif()
else()
  message(STATUS "glevo: no help2man (apt install help2man): no man pages")
endif()

install(FILES cli/glevo.bash-completion DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME glevo)
if(TARGET glevo-demo)
  install(TARGETS glevo-demo RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(FILES README.md packaging/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs PATTERN results EXCLUDE
        PATTERN design EXCLUDE)
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# The Debian package: `cpack -G DEB` in a build configured with CMAKE_INSTALL_PREFIX=/usr.
# One package, not Debian's library/-dev/CLI/python3 split: the library has one user-facing
# front end in each of the four, and a first version's ABI is not yet promised (soname 0).
# A native package (no Debian revision): its changelog is changelog.gz.
execute_process(COMMAND gzip -9nc ${CMAKE_SOURCE_DIR}/packaging/changelog
                OUTPUT_FILE ${CMAKE_BINARY_DIR}/changelog.gz)
install(FILES ${CMAKE_BINARY_DIR}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME glevo)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "glevo developers <glevo@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "evolutionary algorithms as GLSL render passes on the GPU")
# The body under the summary line; CPack indents it and writes the empty line as " .".
set(CPACK_PACKAGE_DESCRIPTION "glevo runs evolutionary algorithms the way GPGPU began: populations and
fitness in RGBA float textures, each genetic operation a GLSL fragment-shader
pass, with compute-shader and CPU engines beside it. It carries a cellular
GA, differential evolution, genetic programming for symbolic regression and
DSMGA-II's model building, headless through EGL (Mesa's llvmpipe without a
GPU).

This package holds the glevo command with its man pages and bash
completion, the glevo-demo window, the shared and static library with its
headers, pkg-config and CMake files, and the Python package (import glevo).")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3, python3-cffi, python3-numpy")
# Without a GPU driver's EGL, Mesa's renders in software (llvmpipe).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libegl-mesa0, libgl1-mesa-dri, openmpi-bin")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libglew-dev, libegl-dev, libgl-dev")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
# The library cache through dpkg's ldconfig trigger, as Debian's policy asks, in place of the
# ldconfig calls CPack writes into postinst/postrm when none are given.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_SOURCE_DIR}/packaging/triggers
    ${CMAKE_SOURCE_DIR}/packaging/postinst ${CMAKE_SOURCE_DIR}/packaging/postrm)
set(CPACK_STRIP_FILES TRUE)
include(CPack)
