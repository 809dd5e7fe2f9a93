#!/usr/bin/env python3
"""k8s_schema.py: validate a Kubernetes batch/v1 Job manifest (YAML or JSON)
strictly against the Kubernetes 1.25 OpenAPI schema, as shipped by the npm
package kubernetes-models 4.1.0 (and @kubernetes-models/apimachinery 1.2.2
for the shared meta types), read from their tarballs without running them.

usage: k8s_schema.py NPM_DIR MANIFEST...

NPM_DIR holds the two tarballs that `npm pack` fetched (scripts/install-deps);
their sha512 must be the pinned one. Strict as `kubeconform -strict`: an
object schema that lists its properties accepts no others (maps, which the
schema gives additionalProperties, stay open), required fields and types are
checked. Then the rules the API server adds to the schema for a Job's pod
template. Exit 0 all valid, 1 one or more invalid (each finding on stderr,
after its file's name), 2 set-up error.
"""
import base64
import hashlib
import json
import re
import sys
import tarfile

import jsonschema
import yaml

PINNED = {
    "kubernetes-models-4.1.0.tgz":
        "OlT0qgHj0W7hJQdc0HzbdYUpK3LcMaKg43yqeEsUsq1gCAldfzEaMyhifNylMud3dWglPQ+5Jt6sFyIr3XTdvg==",
    "kubernetes-models-apimachinery-1.2.2.tgz":
        "d7r1sojRKFPJOgR7Oefh7hlzSZzCEi1hno8Rz6vD96gwmsBOi7KijUcOXnFJ7pgaw3jGuAr62idBkrBbqBz4XA==",
}
ROOT = "io.k8s.api.batch.v1.Job"
REGISTER = re.compile(r'register\)\("([^"]+)", schema\)')


def die(msg):
    print(f"k8s_schema: {msg}", file=sys.stderr)
    sys.exit(2)


def definitions(npm_dir):
    """Every schema the packages register, by its OpenAPI name."""
    defs = {}
    for name, want in PINNED.items():
        path = f"{npm_dir}/{name}"
        try:
            data = open(path, "rb").read()
        except OSError as e:
            die(f"{path}: {e.strerror}: install it with scripts/install-deps")
        got = base64.b64encode(hashlib.sha512(data).digest()).decode()
        if got != want:
            die(f"{path}: sha512 {got}, pinned {want}")
        with tarfile.open(path) as tar:
            for m in tar.getmembers():
                if not re.fullmatch(r"package/_schemas/\w+\.js", m.name):
                    continue
                text = tar.extractfile(m).read().decode()
                reg = REGISTER.search(text)
                start = text.find("const schema = ")
                if not reg or start < 0:
                    die(f"{name}:{m.name}: no registered schema")
                start = text.index("{", start)
                schema, _ = json.JSONDecoder().raw_decode(text, start)
                defs[reg.group(1)] = schema
    if ROOT not in defs:
        die(f"{ROOT}: not in the packages")
    return defs


def strict(node):
    """$ref by name to local refs; objects with listed properties closed."""
    if isinstance(node, list):
        return [strict(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: strict(v) for k, v in node.items()}
    ref = out.get("$ref")
    if isinstance(ref, str) and not ref.startswith("#"):
        out["$ref"] = "#/definitions/" + ref.rstrip("#")
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def leaves(err):
    """The findings under an error (a oneOf of 'X or null' names the X)."""
    if not err.context:
        yield err
        return
    for sub in err.context:
        if sub.validator == "type" and sub.validator_value == "null":
            continue
        yield from leaves(sub)


def where(path):
    return "/".join(str(p) for p in path) or "(document)"


def server_rules(doc):
    """What the API server refuses in a Job although the schema allows it
    (k8s.io/kubernetes pkg/apis/batch/validation, core/validation)."""
    spec = (doc or {}).get("spec") or {}
    tmpl = ((spec.get("template") or {}).get("spec")) or {}
    for i, c in enumerate(tmpl.get("containers") or []):
        if isinstance(c, dict) and not c.get("image"):
            yield (f"spec/template/spec/containers/{i}/image: required by the"
                   " API server for a Job's pods (the schema leaves it optional)")
    if tmpl.get("restartPolicy") not in ("OnFailure", "Never"):
        yield ("spec/template/spec/restartPolicy: a Job's pods must use"
               f" OnFailure or Never, not {tmpl.get('restartPolicy')!r}")
    if spec.get("completionMode") == "Indexed" and spec.get("completions") is None:
        yield "spec/completions: an Indexed Job needs completions"


def findings(validator, path):
    try:
        doc = yaml.safe_load(open(path))
    except (OSError, yaml.YAMLError) as e:
        return [str(e)]
    found = [f"{where(e.absolute_path)}: {e.message}"
             for top in validator.iter_errors(doc) for e in leaves(top)]
    return found + list(server_rules(doc))


def main():
    if len(sys.argv) < 3:
        die("usage: k8s_schema.py NPM_DIR MANIFEST...")
    root = {"$ref": f"#/definitions/{ROOT}",
            "definitions": strict(definitions(sys.argv[1]))}
    v = jsonschema.Draft7Validator(root)
    bad = 0
    for path in sys.argv[2:]:
        found = findings(v, path)
        for f in found:
            print(f"{path}: {f}", file=sys.stderr)
        bad += bool(found)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
