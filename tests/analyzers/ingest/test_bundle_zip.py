"""Zip bundles: each member inflated as it is read and metered against the budgets."""

import zipfile

from analyzers.core.limits import Limits
from analyzers.ingest.bundle import Bundle
from tests.analyzers import hostile

KiB = 1024


def _inflated(bundle: Bundle) -> int:
    total = 0
    for member in bundle.members():
        with member.open() as stream:
            while chunk := stream.read(64 * KiB):
                total += len(chunk)
    return total


def test_a_zip_bombs_ratio_is_judged_as_it_inflates_not_at_its_end(tmp_path):
    """A member of 16 MiB of zeros packs about 1,000:1. Against the member's whole
    compressed size a 500:1 limit only shows half way through (8 MiB); judged on the
    compressed bytes read so far, as a tar.gz is, it shows once the grace is out."""
    bomb = hostile.zip_bomb(tmp_path / "bomb.zip", 16 * hostile.MiB)
    limits = Limits(ratio=500, ratio_grace=256 * KiB)
    bundle = Bundle(bomb, limits=limits)

    read = _inflated(bundle)

    assert read < 2 * hostile.MiB
    assert [hit.limit for hit in bundle.limit_hits()] == ["ratio"]


def test_an_ordinary_zip_member_is_read_whole_under_the_ratio_limit(tmp_path):
    log = b"".join(b"2026-11-29 07:25:37 INFO step %d loss 1.0\n" % i for i in range(100_000))
    path = tmp_path / "job.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("rank0.log", log)
    bundle = Bundle(path, limits=Limits(ratio=20, ratio_grace=64 * KiB))

    assert _inflated(bundle) == len(log)
    assert bundle.limit_hits() == []


def _flagged(data: bytes, name: bytes, *, flag: int = 0, method: int | None = None) -> bytes:
    """`data` (a zip) with entry `name`'s flag bits or method changed in both its headers."""
    out = bytearray(data)
    for signature, flags_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = out.find(signature)
        while at >= 0:
            name_at = at + (30 if signature == b"PK\x03\x04" else 46)
            if out[name_at : name_at + len(name)] == name:
                bits = int.from_bytes(out[at + flags_at : at + flags_at + 2], "little") | flag
                out[at + flags_at : at + flags_at + 2] = bits.to_bytes(2, "little")
                if method is not None:
                    out[at + flags_at + 2 : at + flags_at + 4] = method.to_bytes(2, "little")
            at = out.find(signature, at + 1)
    return bytes(out)


def _zip(path, files) -> bytes:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        for name, data in files:
            zf.writestr(name, data)
    return path.read_bytes()


def test_an_encrypted_member_is_skipped_with_a_warning_and_the_rest_is_read(tmp_path):
    files = [("secret.log", hostile.ERROR_LOG), ("rank0.log", hostile.ERROR_LOG)]
    data = _flagged(_zip(tmp_path / "plain.zip", files), b"secret.log", flag=0x1)
    bundle = Bundle(hostile.write(tmp_path / "job.zip", data), limits=Limits())

    assert [member.path for member in bundle.members()] == ["rank0.log"]
    assert bundle.warnings == ["skipped 'secret.log': encrypted (a password is needed to read it)"]
    assert bundle.warnings_zh == ["已跳过 'secret.log'：已加密（需要密码才能读取）"]


def test_a_member_packed_with_a_method_zipfile_lacks_is_skipped_with_a_warning(tmp_path):
    files = [("d64.log", hostile.ERROR_LOG), ("rank0.log", hostile.ERROR_LOG)]
    data = _flagged(_zip(tmp_path / "plain.zip", files), b"d64.log", method=9)  # Deflate64
    bundle = Bundle(hostile.write(tmp_path / "job.zip", data), limits=Limits())

    assert [member.path for member in bundle.members()] == ["rank0.log"]
    assert bundle.warnings == ["skipped 'd64.log': compressed with method 9, which cannot be read"]
