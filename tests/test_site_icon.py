"""Every page names the site's icon, served from static/: without one, a browser asks for
/favicon.ico on each page and logs the 404 as a console error."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def test_pages_name_an_icon_the_site_serves(client):
    page = client.get("/accounts/login/").content.decode()

    icon = re.search(r'<link rel="icon" type="image/svg\+xml" href="([^"]+)">', page)
    assert icon is not None
    served = client.get(icon.group(1))
    assert served.status_code == 200
    assert served["Content-Type"] == "image/svg+xml"
    assert b"<svg" in b"".join(served.streaming_content)
