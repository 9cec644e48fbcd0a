"""Extracts archives with Python's zipfile and tarfile, for the differential test.

Reads a JSON list of {"archive", "format", "root"} on stdin; writes a JSON list of results on stdout, one per
archive: {"safe": bool, "reason": str | None, "runs": {variant: {"dir": path} | {"error": message}}}.

Before extracting anything, the members Python sees are checked: an absolute or `..` name, or a link or
special file, marks the archive unsafe and nothing is extracted (by Python here, nor by unzip or GNU tar
afterwards), so that a registry bug cannot make the test write outside its temporary folder.
"""
import json
import os
import stat
import sys
import tarfile
import warnings
import zipfile

warnings.simplefilter("ignore")


def unsafe_name(name):
    if name.startswith("/") or name.startswith("\\") or (len(name) > 1 and name[1] == ":"):
        return True
    parts = name.replace("\\", "/").split("/")
    return ".." in parts


def check_zip(path):
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            if unsafe_name(info.filename):
                return "unsafe name %r" % info.filename
            mode = info.external_attr >> 16
            kind = stat.S_IFMT(mode)
            if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
                return "special entry %r (mode %o)" % (info.filename, mode)
    return None


def check_tar(path):
    with tarfile.open(path, "r:gz") as t:
        for member in t.getmembers():
            if unsafe_name(member.name):
                return "unsafe name %r" % member.name
            if not (member.isfile() or member.isdir()):
                return "special entry %r (type %r)" % (member.name, member.type)
    return None


def out_dir(root, variant):
    d = os.path.join(root, variant, "a", "b", "out")
    os.makedirs(d, exist_ok=True)
    return d


def run(item):
    path, fmt, root = item["archive"], item["format"], item["root"]
    result = {"safe": False, "reason": None, "runs": {}}
    try:
        reason = check_zip(path) if fmt == "zip" else check_tar(path)
    except Exception as e:  # noqa: BLE001 - any failure to read is a result
        result["reason"] = "python could not list it: %s: %s" % (type(e).__name__, e)
        return result
    if reason is not None:
        result["reason"] = reason
        return result
    result["safe"] = True
    if fmt == "zip":
        variants = [("python-zipfile", None)]
    else:
        variants = [("python-tarfile", None)]
        if hasattr(tarfile, "data_filter"):
            variants += [("python-tarfile-data", "data"), ("python-tarfile-tar", "tar"), ("python-tarfile-fully_trusted", "fully_trusted")]
    for variant, filt in variants:
        d = out_dir(root, variant)
        try:
            if fmt == "zip":
                with zipfile.ZipFile(path) as z:
                    z.extractall(d)
            else:
                with tarfile.open(path, "r:gz") as t:
                    t.errorlevel = 2
                    if filt is None:
                        t.extractall(d)
                    else:
                        t.extractall(d, filter=filt)
            result["runs"][variant] = {"dir": os.path.join(root, variant)}
        except Exception as e:  # noqa: BLE001
            result["runs"][variant] = {"error": "%s: %s" % (type(e).__name__, e)}
    return result


def main():
    items = json.load(sys.stdin)
    json.dump([run(item) for item in items], sys.stdout)


main()
