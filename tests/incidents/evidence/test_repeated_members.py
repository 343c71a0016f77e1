"""A path a bundle holds twice is read as two files, '<path> (copy 2)' the later one, and
every link to either opens its own lines: in the log viewer (from the line store and from the
bundle itself), on the incident page, as a permalink. Paths with spaces and parentheses, in a
tar appended to (`tar -r`) and in a zip written twice under one name."""

from __future__ import annotations

import io
import shutil
import tarfile
import warnings
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from incidents.evidence.links import file_url, file_urls
from incidents.runs import services
from incidents.runs.analysis import analyze_run
from incidents.runs.runstore import store_dir_for

pytestmark = pytest.mark.django_db

PATH = "job/node 1 (a2)/rank0.log"
FIRST = ["[rank0]: load weights passed", "[rank0]: layer 0 passed"]
SECOND = ["[rank0]: load weights passed", "[rank0]: RuntimeError: copy two failed at step 9"]


def tar_twice() -> tuple[str, bytes]:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for lines in (FIRST, SECOND):
            data = ("\n".join(lines) + "\n").encode()
            info = tarfile.TarInfo(PATH)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return "job.tar.gz", buffer.getvalue()


def zip_twice() -> tuple[str, bytes]:
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w") as zf:
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
        for lines in (FIRST, SECOND):
            zf.writestr(PATH, "\n".join(lines) + "\n")
    return "job.zip", buffer.getvalue()


def analysed(alice, name: str, data: bytes):
    incident = services.incident_create(upload=SimpleUploadedFile(name, data), created_by=alice)
    analyze_run(run_id=incident.latest_run().pk)
    return incident


def viewer_text(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return "\n".join("".join(s.text for s in row.segments) for row in response.context["page"].rows)


@pytest.mark.parametrize("bundle", [tar_twice, zip_twice], ids=["tar", "zip"])
@pytest.mark.parametrize("store", [True, False], ids=["line-store", "from-the-bundle"])
def test_each_copy_opens_its_own_lines(alice_client, alice, bundle, store):
    incident = analysed(alice, *bundle())
    if not store:
        shutil.rmtree(store_dir_for(incident.latest_run().pk))
    copy = f"{PATH} (copy 2)"

    assert [f["path"] for f in incident.latest_run().report["bundle"]["files"]] == [PATH, copy]
    assert "layer 0 passed" in viewer_text(alice_client, file_url(incident.pk, PATH, 2))
    assert "copy two failed" in viewer_text(alice_client, file_url(incident.pk, copy, 2))
    assert file_urls(incident.pk, [copy]) == [file_url(incident.pk, copy)]


@pytest.mark.parametrize("bundle", [tar_twice, zip_twice], ids=["tar", "zip"])
def test_the_rank_table_links_the_error_to_the_copy_that_printed_it(alice_client, alice, bundle):
    incident = analysed(alice, *bundle())
    first_error = incident.latest_run().report["ranks"][0]["first_error"]

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert first_error["file"] == f"{PATH} (copy 2)"
    link = file_url(incident.pk, first_error["file"], first_error["line"])
    assert "%20(copy%202)?line=2#L2" in link
    assert f'href="{link}"' in html
    assert "copy two failed" in viewer_text(alice_client, link)
