"""A program whose link finds no definition for symbols it uses.

docs/labelling.md#an-extension-built-against-headers-that-do-not-fit: GNU ld's `undefined
reference to` lines mean the linked parts do not fit (another C++ ABI, another release, a
library left off the link line), `config` with `driver_env` and `other` beside it; the first
such line is the first error and collect2's and make's lines restate it. Values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

LINK_FAILED = """\
[ 90%] Linking CXX executable ../bin/matcher
/usr/bin/ld: CMakeFiles/matcher.dir/main.cpp.o: in function `load_frames(std::string const&)':
/work/matcher/main.cpp:41: undefined reference to `cv::imread(std::string const&, int)'
/usr/bin/ld: /work/matcher/main.cpp:57: undefined reference to `cv::VideoCapture::VideoCapture(std::string const&, int)'
collect2: error: ld returned 1 exit status
make[2]: *** [CMakeFiles/matcher.dir/build.make:97: ../bin/matcher] Error 1
make: *** [Makefile:84: all] Error 2
"""

LINK_FIXED = """\
[ 90%] Linking CXX executable ../bin/matcher
note: added opencv_imgcodecs to the link line, which fixed the undefined reference to imread
[100%] Built target matcher
"""


def test_undefined_references_are_parts_that_do_not_fit() -> None:
    diagnosis = diagnose_text("build/make.log", LINK_FAILED)
    assert_reads(
        diagnosis,
        "config",
        first_error="undefined reference to `cv::imread",
        rule="cfg.link_undefined_reference",
        beside=["driver_env", "other"],
    )


def test_a_note_about_a_fixed_reference_is_no_failure() -> None:
    diagnosis = diagnose_text("build/make.log", LINK_FIXED)
    assert "cfg.link_undefined_reference" not in rules_of(diagnosis)


NEEDED_LIBRARY_MISSING = """\
[100%] Linking CXX executable ../bin/solver
/usr/bin/ld: warning: libgfortran-5a6b7c8d.so.5.0.0, needed by /srv/env/lib/libscipy_openblas.so, not found (try using -rpath or -rpath-link)
/usr/bin/ld: /srv/env/lib/libscipy_openblas.so: undefined reference to `_gfortran_concat_string@GFORTRAN_8'
collect2: error: ld returned 1 exit status
"""


def test_references_step_aside_for_a_needed_library_not_found() -> None:
    diagnosis = diagnose_text("build/make.log", NEEDED_LIBRARY_MISSING)
    assert_reads(diagnosis, "driver_env", first_error="needed by /srv/env/lib/libscipy_openblas.so")
