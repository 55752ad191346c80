#!/usr/bin/env bash
# Validates the Kubernetes manifests in deploy/ offline: no cluster, no kubeconfig, no network (docs/deploy.md).
#   1. `kubectl kustomize` builds every kustomization under deploy/ (deploy/base, deploy/overlays/*,
#      deploy/results-reader). kubectl 1.20 and older (Debian bookworm's kubernetes-client) embed kustomize v2,
#      which cannot build the overlays (a directory in `resources`, `replicas`, `patches`): they are skipped
#      there, with a message; the base and the results reader are built by every version.
#   2. The client-side dry run that needs no server: every `kubectl apply/create --dry-run=client` form asks
#      the API server for discovery (or its OpenAPI schema to validate), so instead kubectl decodes every
#      rendered object into its typed Go struct (`kubectl set image --local`): an unknown kind or apiVersion,
#      or a value of the wrong type (a string port, `replicas: "2"`), fails as it would at `kubectl apply`.
#      The typed round trip of the Deployments, Jobs and Pods is compared with the rendered objects: a field
#      that the typed struct dropped (a misspelt `readinesProbe`, a field at the wrong level) fails.
#   3. Field checks (python3, standard library only): every container and init container has CPU and memory
#      requests and limits, runs as non-root (runAsNonRoot, a non-zero runAsUser), without privilege
#      escalation, with all capabilities dropped, a read-only root file system and the RuntimeDefault
#      seccomp profile (the "restricted" Pod Security Standard the namespace enforces); every container but
#      Redis's runs one and the same image in every kustomization, as the Dockerfile's USER (UID 10001);
#      volume mounts name volumes, claims name PersistentVolumeClaims of deploy/, Deployment selectors match
#      their pods, every Service selects pods and its named target ports exist, everything is labelled
#      app.kubernetes.io/name and part-of, and namespaced objects are in namespace reversi.
# Usage: tools/scripts/check-deploy.sh   (from anywhere; exit 0 when everything holds or kubectl is absent,
# 1 with the reasons on stderr otherwise). About a second.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v kubectl >/dev/null 2>&1; then
  echo "check-deploy: kubectl not found, skipped" >&2
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# An empty configuration: nothing below may reach a cluster, whatever ~/.kube/config says.
printf 'apiVersion: v1\nkind: Config\n' >"$tmp/kubeconfig"
export KUBECONFIG="$tmp/kubeconfig"

version_json=$(kubectl version --client -o json 2>/dev/null || true)
minor=$(printf '%s\n' "$version_json" | sed -n 's/^ *"minor": *"\([0-9]*\).*/\1/p' | head -n 1)
git_version=$(printf '%s\n' "$version_json" | sed -n 's/^ *"gitVersion": *"\([^"]*\)".*/\1/p' | head -n 1)
kustomize_version=$(printf '%s\n' "$version_json" | sed -n 's/^ *"kustomizeVersion": *"\([^"]*\)".*/\1/p' | head -n 1)
old_kustomize=0
if [ -n "$minor" ] && [ "$minor" -lt 21 ]; then
  old_kustomize=1
  kustomize_version="v2 (embedded in kubectl $git_version)"
fi

failed=0
built=()
skipped=()
n=0
for kfile in $(find deploy -name kustomization.yaml | sort); do
  dir=$(dirname "$kfile")
  case "$dir" in
    deploy/overlays/*)
      if [ "$old_kustomize" = 1 ]; then
        skipped+=("$dir")
        continue
      fi
      ;;
  esac
  n=$((n + 1))
  out="$tmp/$n"
  mkdir "$out"
  printf '%s\n' "$dir" >"$out/dir"
  if ! kubectl kustomize "$dir" >"$out/rendered.yaml" 2>"$out/kustomize.err"; then
    echo "check-deploy: kubectl kustomize $dir failed:" >&2
    sed 's/^/  /' "$out/kustomize.err" >&2
    failed=1
    continue
  fi
  # A deprecation warning means the kustomization needs `kustomize edit fix`: treat it as an error.
  if grep -qi 'warning' "$out/kustomize.err"; then
    echo "check-deploy: kubectl kustomize $dir warned:" >&2
    sed 's/^/  /' "$out/kustomize.err" >&2
    failed=1
  fi
  # The rendered objects as JSON, untouched (an empty merge patch, applied locally).
  if ! kubectl patch --local -f "$out/rendered.yaml" --type=merge -p '{}' -o json >"$out/objects.json" 2>"$out/patch.err"; then
    echo "check-deploy: $dir: kubectl cannot read the rendered objects:" >&2
    sed 's/^/  /' "$out/patch.err" >&2
    failed=1
    continue
  fi
  # Typed decoding of every object; the objects with a pod template come back re-encoded from their structs.
  # The others are reported as "not a pod or does not have a pod template", which is expected; any other
  # error is a failure (checked below, with the round trip).
  kubectl set image --local -f "$out/rendered.yaml" '*=check-deploy/unchanged' -o json \
    >"$out/typed.json" 2>"$out/typed.err" || true
  built+=("$dir")
done

if [ "${#built[@]}" -gt 0 ]; then
  if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp" "$failed" <<'PY' || failed=1
import json, os, re, sys

root = sys.argv[1]
complete = sys.argv[2] == "0"  # every kustomization built: claims may be looked up across them
errors = []

def err(where, msg):
    errors.append(f"{where}: {msg}")

def json_documents(text):
    """kubectl -o json prints one document per object, or a List."""
    dec = json.JSONDecoder()
    i, out = 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        obj, i = dec.raw_decode(text, i)
        if obj.get("kind") == "List":
            out.extend(obj.get("items", []))
        else:
            out.append(obj)

def empty(v):
    return v in (None, False, 0, "", [], {})

def dropped_fields(rendered, typed, path=""):
    """Fields of `rendered` that the typed round trip lost (zero values aside: omitempty drops them)."""
    if isinstance(rendered, dict):
        if not isinstance(typed, dict):
            return [path or "."]
        out = []
        for k, v in rendered.items():
            if k not in typed:
                if not empty(v):
                    out.append(f"{path}.{k}")
            else:
                out.extend(dropped_fields(v, typed[k], f"{path}.{k}"))
        return out
    if isinstance(rendered, list):
        if not isinstance(typed, list) or len(typed) != len(rendered):
            return [path]
        out = []
        for i, (a, b) in enumerate(zip(rendered, typed)):
            out.extend(dropped_fields(a, b, f"{path}[{i}]"))
        return out
    return []

POD_TEMPLATE_KINDS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"}
KNOWN_KINDS = POD_TEMPLATE_KINDS | {"Pod", "Namespace", "Service", "PersistentVolumeClaim", "NetworkPolicy",
                                    "ConfigMap", "Secret", "ServiceAccount", "CronJob"}
CLUSTER_KINDS = {"Namespace"}
NAMESPACE = "reversi"

def pod_spec(obj):
    k = obj.get("kind")
    if k == "Pod":
        return obj.get("spec") or {}, (obj.get("metadata") or {}).get("labels") or {}
    if k in POD_TEMPLATE_KINDS:
        t = (obj.get("spec") or {}).get("template") or {}
        return t.get("spec") or {}, (t.get("metadata") or {}).get("labels") or {}
    if k == "CronJob":
        t = (((obj.get("spec") or {}).get("jobTemplate") or {}).get("spec") or {}).get("template") or {}
        return t.get("spec") or {}, (t.get("metadata") or {}).get("labels") or {}
    return None, None

renders = []
for name in sorted(os.listdir(root), key=lambda s: (len(s), s)):
    d = os.path.join(root, name)
    if not os.path.isdir(d) or not os.path.exists(os.path.join(d, "objects.json")):
        continue
    with open(os.path.join(d, "dir")) as f:
        kdir = f.read().strip()
    with open(os.path.join(d, "objects.json")) as f:
        objects = json_documents(f.read())
    with open(os.path.join(d, "typed.json")) as f:
        typed_text = f.read()
    with open(os.path.join(d, "typed.err"), errors="replace") as f:  # old kubectl quotes raw bytes
        typed_err = f.read()
    renders.append((kdir, objects, typed_text, typed_err))

# The Dockerfile's USER, which the manifests' runAsUser must match.
docker_uid = None
try:
    with open("Dockerfile") as f:
        users = re.findall(r"^USER\s+(\d+)", f.read(), re.M)
    docker_uid = int(users[-1]) if users else None
except OSError:
    pass

all_claims = set()
for _, objects, _, _ in renders:
    for o in objects:
        if o.get("kind") == "PersistentVolumeClaim":
            all_claims.add((o.get("metadata") or {}).get("name"))

images = {}  # image -> [where]
counts = []
for kdir, objects, typed_text, typed_err in renders:
    counts.append(f"{kdir} ({len(objects)} objects)")
    # 2. typed decoding: the only acceptable complaint is about objects without a pod template.
    decode_failed = False
    for chunk in re.split(r"(?m)^error: ", typed_err):
        chunk = re.sub(r'unable to decode "[^"]*": ', "", " ".join(chunk.split()))
        if chunk and "does not have a pod template" not in chunk:
            err(kdir, "kubectl cannot decode the rendered objects: " + chunk[:400])
            decode_failed = True
    try:
        typed = json_documents(typed_text)
    except ValueError as e:
        typed = []
        err(kdir, f"kubectl's typed output is not JSON: {e}")
    typed_by_key = {(t.get("kind"), (t.get("metadata") or {}).get("name")): t for t in typed}

    pods = []  # (where, labels, spec)
    defined = {}
    for o in objects:
        defined.setdefault(o.get("kind"), set()).add((o.get("metadata") or {}).get("name"))
    for o in objects:
        kind, md = o.get("kind"), o.get("metadata") or {}
        name = md.get("name")
        where = f"{kdir}: {kind}/{name}"
        if not o.get("apiVersion") or not kind or not name:
            err(where, "apiVersion, kind and metadata.name are required")
            continue
        if kind not in KNOWN_KINDS:
            err(where, f"kind {kind} is not one this script checks; add it to KNOWN_KINDS")
        if kind not in CLUSTER_KINDS and md.get("namespace") != NAMESPACE:
            err(where, f"namespace is {md.get('namespace')!r}, not {NAMESPACE!r}")
        labels = md.get("labels") or {}
        for l in ("app.kubernetes.io/name", "app.kubernetes.io/part-of"):
            if l not in labels:
                err(where, f"label {l} missing")
        spec, tlabels = pod_spec(o)
        if spec is None:
            continue
        # The typed round trip keeps every field that the rendered object sets.
        t = typed_by_key.get((kind, name))
        if t is None:
            if not decode_failed:
                err(where, "kubectl did not decode it (no typed output)")
        else:
            for p in dropped_fields(o.get("spec") or {}, t.get("spec") or {}, ".spec"):
                err(where, f"field {p} is not in the {o['apiVersion']} {kind} schema (dropped by kubectl's decoding)")
        for l in ("app.kubernetes.io/name", "app.kubernetes.io/component", "app.kubernetes.io/part-of"):
            if l not in tlabels:
                err(where, f"pod label {l} missing")
        if kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"):
            sel = ((o.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
            if not sel or any(tlabels.get(k) != v for k, v in sel.items()):
                err(where, f"selector {sel} does not match the pod labels {tlabels}")
        if kind == "Job" and spec.get("restartPolicy") not in ("OnFailure", "Never"):
            err(where, "a Job's restartPolicy must be OnFailure or Never")
        pods.append((where, tlabels, spec))

        psc = spec.get("securityContext") or {}
        volumes = {v.get("name"): v for v in spec.get("volumes") or []}
        for v in volumes.values():
            claim = (v.get("persistentVolumeClaim") or {}).get("claimName")
            if claim is not None and claim not in all_claims and complete:
                err(where, f"volume {v.get('name')} claims {claim}, which no kustomization in deploy/ defines")
            # A generated ConfigMap or Secret has a hashed name, which kustomize writes into the volumes that
            # name it, if they are in the same namespace: the name must be one of this kustomization's.
            for vkind, key in (("ConfigMap", "configMap"), ("Secret", "secret")):
                ref = (v.get(key) or {}).get("name" if key == "configMap" else "secretName")
                if ref is not None and ref not in defined.get(vkind, set()):
                    err(where, f"volume {v.get('name')} names {vkind} {ref}, which this kustomization does not define")
        for c in (spec.get("initContainers") or []) + (spec.get("containers") or []):
            cw = f"{where} container {c.get('name')}"
            image = c.get("image") or ""
            if not c.get("name") or not image:
                err(cw, "name and image are required")
            res = c.get("resources") or {}
            for part in ("requests", "limits"):
                for r in ("cpu", "memory"):
                    if r not in (res.get(part) or {}):
                        err(cw, f"resources.{part}.{r} missing")
            csc = c.get("securityContext") or {}
            def effective(key):
                return csc.get(key, psc.get(key))
            if effective("runAsNonRoot") is not True:
                err(cw, "runAsNonRoot is not true (container or pod securityContext)")
            uid = effective("runAsUser")
            if uid == 0:
                err(cw, "runAsUser is 0")
            if csc.get("allowPrivilegeEscalation") is not False:
                err(cw, "allowPrivilegeEscalation is not false")
            if "ALL" not in ((csc.get("capabilities") or {}).get("drop") or []):
                err(cw, "capabilities.drop does not contain ALL")
            if (csc.get("capabilities") or {}).get("add"):
                err(cw, "capabilities.add is set")
            if csc.get("readOnlyRootFilesystem") is not True:
                err(cw, "readOnlyRootFilesystem is not true")
            if ((effective("seccompProfile") or {}).get("type")) not in ("RuntimeDefault", "Localhost"):
                err(cw, "seccompProfile is not RuntimeDefault (container or pod securityContext)")
            if csc.get("privileged"):
                err(cw, "privileged")
            for m in c.get("volumeMounts") or []:
                if m.get("name") not in volumes:
                    err(cw, f"volumeMount {m.get('name')} names no volume of the pod")
            if not image.startswith("redis:"):
                images.setdefault(image, []).append(cw)
                if docker_uid is not None and uid is not None and uid != docker_uid:
                    err(cw, f"runAsUser {uid} is not the Dockerfile's USER {docker_uid}")

    for o in objects:
        if o.get("kind") != "Service":
            continue
        where = f"{kdir}: Service/{o['metadata']['name']}"
        spec = o.get("spec") or {}
        sel = spec.get("selector") or {}
        matched = [p for p in pods if sel and all(p[1].get(k) == v for k, v in sel.items())]
        if not matched:
            err(where, f"selector {sel} selects no pod of this kustomization")
            continue
        for port in spec.get("ports") or []:
            tp = port.get("targetPort", port.get("port"))
            if isinstance(tp, str):
                names = {p.get("name") for _, _, s in matched for c in s.get("containers") or []
                         for p in c.get("ports") or []}
                if tp not in names:
                    err(where, f"targetPort {tp} is no named port of the selected pods")

if len(images) > 1:
    err("deploy", "the reversi containers run different images: " +
        "; ".join(f"{i} ({len(w)}: {w[0]}...)" for i, w in sorted(images.items())))
elif not images:
    err("deploy", "no container runs the reversi image")

for e in errors:
    print("check-deploy: " + e, file=sys.stderr)
if errors:
    sys.exit(1)
print(f"check-deploy: fields OK in {', '.join(counts)}; one image: {next(iter(images))}", file=sys.stderr)
PY
  else
    echo "check-deploy: python3 not found: the typed round trip and the field checks were skipped" >&2
    for out in "$tmp"/*/; do
      [ -f "$out/typed.err" ] || continue
      # One complaint per "error: " (kubectl breaks some of them across lines).
      bad=$(tr '\n' ' ' <"$out/typed.err" | sed 's/error: /\n&/g' | grep -v -e '^ *$' -e 'does not have a pod template' || true)
      if [ -n "$bad" ]; then
        echo "check-deploy: $(cat "$out/dir"): kubectl cannot decode the rendered objects:" >&2
        printf '%s\n' "$bad" | sed -e 's/unable to decode "[^"]*": //' -e 's/^/  /' >&2
        failed=1
      fi
    done
  fi
fi

for dir in "${skipped[@]+"${skipped[@]}"}"; do
  echo "check-deploy: $dir skipped: kubectl $git_version embeds kustomize v2, which cannot build overlays" \
       "(kubectl 1.21 or later can)" >&2
done
if [ "$failed" != 0 ]; then
  echo "check-deploy: FAILED (kubectl $git_version, kustomize $kustomize_version)" >&2
  exit 1
fi
echo "check-deploy: ${built[*]} built and decoded offline (kubectl $git_version, kustomize $kustomize_version)" >&2
