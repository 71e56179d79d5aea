/* Empty on purpose: cffi knows this header's types (cmake/python_cdef.cmake). */
