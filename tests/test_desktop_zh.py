"""The desktop entry, AppStream metainfo and MIME package in Simplified Chinese as well as English."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gpu_tpu_app import APP_ID, desktop
from tools.i18n_allow import CJK

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def _entry_keys(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))


def test_desktop_entry_has_its_chinese_keys(tmp_path: Path) -> None:
    keys = _entry_keys(desktop.desktop_template())
    for key in ("Name", "GenericName", "Comment", "Keywords"):
        assert key in keys and f"{key}[zh_CN]" in keys, key
    for key in ("GenericName[zh_CN]", "Comment[zh_CN]", "Keywords[zh_CN]"):
        assert CJK.search(keys[key]), key
    assert keys["Name[zh_CN]"] == keys["Name"]  # the product's name, as the window's title shows it
    assert keys["Keywords[zh_CN]"].endswith(";") and keys["Keywords[zh_CN]"].count(";") >= 5
    # what --install-desktop-entry writes keeps them
    installed = next(
        data.decode() for path, data in desktop.planned_files(tmp_path).items() if path.suffix == ".desktop"
    )
    assert _entry_keys(installed)["Comment[zh_CN]"] == keys["Comment[zh_CN]"]


def test_metainfo_has_every_text_in_chinese() -> None:
    root = ET.fromstring(desktop.metainfo())
    for tag in ("name", "summary"):
        langs = {el.get(XML_LANG) for el in root.findall(tag)}
        assert langs == {None, "zh-CN"}, tag
    summary = next(el for el in root.findall("summary") if el.get(XML_LANG) == "zh-CN")
    assert CJK.search(summary.text or "")
    for parent in (root.find("description"), *root.iter("screenshot")):
        assert parent is not None
        for tag in ("p", "li", "caption"):
            english = [el for el in parent.iter(tag) if el.get(XML_LANG) is None]
            chinese = [el for el in parent.iter(tag) if el.get(XML_LANG) == "zh-CN"]
            assert len(chinese) == len(english), (parent.tag, tag)
            assert all(CJK.search(el.text or "") for el in chinese), (parent.tag, tag)


def test_mime_types_have_their_chinese_comment() -> None:
    root = ET.fromstring(desktop.mime_xml())
    types = root.findall(f"{MIME_NS}mime-type")
    assert types
    for mime in types:
        comments = {el.get(XML_LANG): el.text or "" for el in mime.findall(f"{MIME_NS}comment")}
        assert set(comments) == {None, "zh_CN"}, mime.get("type")
        assert CJK.search(comments["zh_CN"]), mime.get("type")


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstreamcli is not installed")
def test_metainfo_with_its_translations_validates(tmp_path: Path) -> None:
    path = tmp_path / f"{APP_ID}.metainfo.xml"
    path.write_text(desktop.metainfo(), encoding="utf-8")
    proc = subprocess.run(
        ["appstreamcli", "validate", "--no-net", "--strict", str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.skipif(shutil.which("update-mime-database") is None, reason="shared-mime-info is not installed")
def test_the_mime_database_takes_the_chinese_comment(tmp_path: Path) -> None:
    packages = tmp_path / "mime" / "packages"
    packages.mkdir(parents=True)
    (packages / f"{APP_ID}.xml").write_text(desktop.mime_xml(), encoding="utf-8")
    proc = subprocess.run(["update-mime-database", str(tmp_path / "mime")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    built = (tmp_path / "mime" / "application" / "x-gpu-tpu-session.xml").read_text(encoding="utf-8")
    assert 'xml:lang="zh_CN"' in built and "会话" in built
