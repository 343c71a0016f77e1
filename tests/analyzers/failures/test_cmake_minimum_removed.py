"""A CMake release that no longer accepts an old minimum version in a project's files.

docs/labelling.md#a-cmake-release-newer-than-the-project-files-allow
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A source build of a framework whose vendored library still asks for CMake 2.8.
MINIMUM_REMOVED = """\
-- The C compiler identification is GNU 11.4.0
CMake Error at third_party/vendored/zlib/CMakeLists.txt:2 (cmake_minimum_required):
  Compatibility with CMake < 3.5 has been removed from CMake.

  Update the VERSION argument <min> value.  Or, use the <min>...<max> syntax
  to tell CMake that the project requires at least <min> but has been updated
  to work with policies introduced by <max> or earlier.

  Or, add -DCMAKE_POLICY_VERSION_MINIMUM=3.5 to try configuring anyway.

-- Configuring incomplete, errors occurred!
"""

# Older CMake releases only warn that the support will go.
DEPRECATION_WARNING = """\
CMake Deprecation Warning at third_party/vendored/zlib/CMakeLists.txt:2 (cmake_minimum_required):
  Compatibility with CMake < 3.5 will be removed from a future version of
  CMake.
-- Configuring done
-- Build files have been written to: /src/build
"""


def test_a_removed_minimum_is_the_builds_setting_with_the_machine_beside_it() -> None:
    diagnosis = diagnose_text("build.log", MINIMUM_REMOVED)
    assert_reads(diagnosis, "config", first_error="Compatibility with CMake < 3.5 has been removed")
    assert "cfg.cmake_minimum_removed" in {e.rule for e in diagnosis.evidence}
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_the_deprecation_warning_of_older_releases_is_no_failure() -> None:
    diagnosis = diagnose_text("build.log", DEPRECATION_WARNING)
    assert "cfg.cmake_minimum_removed" not in {e.rule for e in diagnosis.evidence}
