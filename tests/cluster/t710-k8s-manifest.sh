#!/bin/sh
# t710: the Kubernetes indexed Job of docs/STORE.md (issue #22), taken
# from the markdown, is a valid batch/v1 Job for the Kubernetes 1.25
# schema, strictly (tests/cluster/k8s_schema.py: unknown fields, required
# fields, types, and what the API server adds for a Job's pods), and its
# shard count is its completions. The same manifest broken in each way
# the validator must see is refused, so a validator that lets anything
# through fails here. Needs python3-jsonschema, python3-yaml and the two
# npm tarballs scripts/install-deps packs into $QUENCH_NPM_DIR
# (default /var/cache/quench/npm).
. "$(dirname "$0")/../cli/lib.sh"

NPM_DIR=${QUENCH_NPM_DIR:-/var/cache/quench/npm}
V="python3 $TOP/tests/cluster/k8s_schema.py $NPM_DIR"

awk '/^### Kubernetes indexed Job$/ { in_s = 1; next }
     in_s && /^##/ { exit }
     in_s && /^```yaml$/ { on = 1; next }
     on && /^```$/ { exit }
     on { print }' "$TOP/docs/STORE.md" >"$TMP/job.yaml"
[ -s "$TMP/job.yaml" ] && ok || not_ok "docs/STORE.md has a yaml block under 'Kubernetes indexed Job'"

$V "$TMP/job.yaml" 2>"$TMP/err"
rc=$?
if [ "$rc" -eq 2 ]; then
    not_ok "the schema packages: $(cat "$TMP/err")"
    done_testing
    exit
fi
expect_rc 0 "the documented manifest is a valid batch/v1 Job"

# the shard count in the command is the Job's completions, and each pod
# takes its shard from the index Kubernetes gives it
python3 - "$TMP/job.yaml" <<'EOF' && ok || not_ok "--shard \$JOB_COMPLETION_INDEX/N with N = completions, one database per index"
import re, sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
n = d["spec"]["completions"]
cmd = " ".join(d["spec"]["template"]["spec"]["containers"][0]["args"])
assert re.search(r'--shard "\$JOB_COMPLETION_INDEX/%d"' % n, cmd), cmd
assert re.search(r'--db "[^"]*\$JOB_COMPLETION_INDEX[^"]*"', cmd), cmd
assert d["spec"]["completionMode"] == "Indexed"
EOF

# broken copies, all checked in one run of the validator:
# LABEL|python statement on the document d|expected finding
n=0
while IFS='|' read -r label edit want; do
    n=$((n + 1))
    printf '%s|%s\n' "$label" "$want" >"$TMP/want$n"
    python3 - "$TMP/job.yaml" "$TMP/bad$n.yaml" "$edit" <<'EOF'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
spec, pod = d["spec"], d["spec"]["template"]["spec"]
c = pod["containers"][0]
exec(sys.argv[3])
yaml.safe_dump(d, open(sys.argv[2], "w"))
EOF
done <<'EOF'
misspelled completionMode|spec["completonMode"] = spec.pop("completionMode")|spec: Additional properties are not allowed ('completonMode' was unexpected)
completions as a string|spec["completions"] = "16"|spec/completions: '16' is not of type 'integer'
parallelism as a float|spec["parallelism"] = 1.5|spec/parallelism: 1.5 is not of type 'integer'
container without a name|del c["name"]|containers/0: 'name' is a required property
container without an image|del c["image"]|containers/0/image: required by the API server
misspelled field in a container|c["comand"] = c.pop("command")|containers/0: Additional properties are not allowed ('comand' was unexpected)
env value as a number|c["env"][0]["value"] = 12|env/0/value: 12 is not of type 'string'
misspelled volume mount|c["volumeMounts"][0]["mountPth"] = c["volumeMounts"][0].pop("mountPath")|'mountPath' is a required property
wrong apiVersion|d["apiVersion"] = "batch/v2"|apiVersion: 'batch/v2' is not one of ['batch/v1']
Job without a template|del spec["template"]|spec: 'template' is a required property
restartPolicy Always|pod["restartPolicy"] = "Always"|restartPolicy: a Job's pods must use OnFailure or Never
Indexed without completions|del spec["completions"]|spec/completions: an Indexed Job needs completions
EOF
files=
i=0
while [ "$i" -lt "$n" ]; do
    i=$((i + 1))
    files="$files $TMP/bad$i.yaml"
done
# shellcheck disable=SC2086
$V $files 2>"$TMP/err"
rc=$?
expect_rc 1 "the broken copies are refused"
i=0
while [ "$i" -lt "$n" ]; do
    i=$((i + 1))
    IFS='|' read -r label want <"$TMP/want$i"
    grep -F -- "$TMP/bad$i.yaml: " "$TMP/err" | grep -qF -- "$want" && ok ||
        not_ok "$label: refused, saying '$want'"
done

# a pinned tarball that is not the pinned one is a set-up error (2)
mkdir -p "$TMP/npm"
cp "$NPM_DIR"/*.tgz "$TMP/npm/"
printf x >>"$TMP/npm/kubernetes-models-4.1.0.tgz"
python3 "$TOP/tests/cluster/k8s_schema.py" "$TMP/npm" "$TMP/job.yaml" 2>"$TMP/err"
rc=$?
expect_rc 2 "a tarball that is not the pinned one"
expect_err "kubernetes-models-4.1.0.tgz: sha512" "names it"

done_testing
